'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { useTRPC } from '../../../lib/trpc';
import type { Broadcast } from '../types';

/** Deletes a draft or cancelled broadcast, then back to the list. */
export function DeleteBroadcastDialog({ broadcast, open, onClose }: { broadcast: Broadcast; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.broadcasts.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.broadcasts.list.pathFilter());
        router.push('/broadcasts');
        // Dropped after leaving, so the page never refetches a broadcast that is gone.
        queryClient.removeQueries(trpc.broadcasts.get.queryFilter({ id: broadcast.id }));
      },
    }),
  );

  return (
    <ConfirmDialog
      open={open}
      {...mutationDialogProps(remove, onClose)}
      title="Delete broadcast"
      testId="delete-broadcast-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{broadcast.name}</strong>?
        </>
      }
      confirmLabel="Delete broadcast"
      onConfirm={() => remove.mutate({ id: broadcast.id })}
      errorTitle="Could not delete the broadcast"
    >
      <IrreversibleConsequences>
        {broadcast.status === 'draft' ? <li>The draft and its content are gone.</li> : <li>The broadcast and its counts leave the list; emails already sent keep their own history.</li>}
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
