'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useTRPC } from '../../lib/trpc';
import type { Member } from './types';
import { useInvalidateTeam } from './use-invalidate-team';

/** The owner hands the organization over; they stay as an admin. */
export function TransferOwnershipButton({ member }: { member: Member }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateTeam();
  const [confirming, setConfirming] = useState(false);
  const transfer = useMutation(
    trpc.team.transferOwnership.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setConfirming(false);
      },
    }),
  );
  const close = () => {
    if (transfer.isPending) return;
    setConfirming(false);
    transfer.reset();
  };
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label={`Make ${member.email} the owner`}>
        Make owner
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={close}
        title="Transfer ownership"
        testId="transfer-ownership-dialog"
        description={
          <>
            Make <strong className="font-semibold text-slate-700">{member.email}</strong> the owner of the organization?
          </>
        }
        confirmLabel="Transfer ownership"
        onConfirm={() => transfer.mutate({ userId: member.userId })}
        pending={transfer.isPending}
        error={transfer.error}
        errorTitle="Could not transfer ownership"
      >
        <p className="text-sm text-slate-600">
          An organization has one owner. You become an admin: you lose billing, ownership and the organization&rsquo;s deletion, and only the new owner can give them back.
        </p>
      </ConfirmDialog>
    </>
  );
}
