'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useTRPC } from '../../lib/trpc';
import type { Member } from './types';
import { useInvalidateTeam } from './use-invalidate-team';

/** Remove, after a confirmation that says the person is signed out everywhere. */
export function RemoveMemberButton({ member }: { member: Member }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateTeam();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.team.remove.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setConfirming(false);
      },
    }),
  );
  const close = () => {
    if (remove.isPending) return;
    setConfirming(false);
    remove.reset();
  };
  return (
    <>
      <Button variant="secondary" size="sm" className="text-red-700" onClick={() => setConfirming(true)} aria-label={`Remove ${member.email}`}>
        Remove
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={close}
        title="Remove member"
        testId="remove-member-dialog"
        description={
          <>
            Remove <strong className="font-semibold text-slate-700">{member.email}</strong> from the organization?
          </>
        }
        confirmLabel="Remove member"
        onConfirm={() => remove.mutate({ userId: member.userId })}
        pending={remove.isPending}
        error={remove.error}
        errorTitle="Could not remove the member"
      >
        <p className="text-sm text-slate-600">
          They lose access at once and are signed out of EU Mail on every device. API keys they created keep working until you revoke them.
        </p>
      </ConfirmDialog>
    </>
  );
}
