'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { LogOutIcon } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useTRPC } from '../../lib/trpc';
import { SettingsSection } from './section';

/**
 * Anyone but the owner leaves; the owner is told to transfer ownership first. Afterwards the
 * dashboard starts over at the overview of another organization of theirs (or a new one).
 */
export function LeaveOrganization() {
  const trpc = useTRPC();
  const organization = useQuery(trpc.organization.current.queryOptions({}));
  const [confirming, setConfirming] = useState(false);
  if (!organization.data) return null;
  const isOwner = organization.data.role === 'owner';

  return (
    <SettingsSection
      id="leave-organization"
      testId="leave-organization"
      title="Leave organization"
      description={
        isOwner ? (
          <>
            You own {organization.data.name}, so you cannot leave it:{' '}
            <Link href="/team" className="font-medium text-indigo-600 hover:text-indigo-500">
              transfer ownership
            </Link>{' '}
            to another member first, or delete the organization below.
          </>
        ) : (
          `You lose access to ${organization.data.name} at once; its owner or an admin can invite you again. Your account and your other organizations stay.`
        )
      }
    >
      {!isOwner && (
        <div>
          <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
            <LogOutIcon className="size-4" />
            Leave {organization.data.name}
          </Button>
          <LeaveDialog open={confirming} onClose={() => setConfirming(false)} name={organization.data.name} />
        </div>
      )}
    </SettingsSection>
  );
}

/** What leaving means, and the button that does it; the dashboard then starts over elsewhere. */
function LeaveDialog({ open, onClose, name }: { open: boolean; onClose: () => void; name: string }) {
  const trpc = useTRPC();
  const leave = useMutation(trpc.organization.leave.mutationOptions({ onSuccess: () => window.location.assign('/') }));
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Leave ${name}?`}
      testId="leave-organization-dialog"
      description="You will no longer see its emails, keys or members. To come back you need a new invitation."
      confirmLabel="Leave organization"
      onConfirm={() => leave.mutate({})}
      pending={leave.isPending}
      loading={leave.isPending || leave.isSuccess}
      error={leave.error}
      errorTitle="Could not leave the organization"
    />
  );
}
