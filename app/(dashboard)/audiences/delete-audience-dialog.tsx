'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../components/irreversible-consequences';
import { countOf } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { Audience } from './types';

/**
 * Delete an audience with its contacts, after saying so. The server refuses (409) while a
 * broadcast is scheduled for it or sending to it, and its reason shows here.
 */
export function DeleteAudienceDialog({ audience, open, onClose, leaveTo }: { audience: Audience; open: boolean; onClose: () => void; leaveTo?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.audiences.delete.mutationOptions({
      onSuccess: async () => {
        await Promise.all([queryClient.invalidateQueries(trpc.audiences.list.pathFilter()), queryClient.invalidateQueries(trpc.segments.list.pathFilter())]);
        if (leaveTo) {
          router.push(leaveTo);
          // Dropped after leaving, so the page never refetches an audience that is gone.
          queryClient.removeQueries(trpc.audiences.get.queryFilter({ id: audience.id }));
          queryClient.removeQueries(trpc.segments.get.queryFilter({ id: audience.id }));
          queryClient.removeQueries(trpc.audiences.listContacts.pathFilter());
        } else {
          onClose();
        }
      },
    }),
  );

  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };

  return (
    <ConfirmDialog
      open={open}
      onClose={close}
      title="Delete audience"
      testId="delete-audience-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{audience.name}</strong>?
        </>
      }
      confirmLabel="Delete audience"
      onConfirm={() => remove.mutate({ id: audience.id })}
      pending={remove.isPending}
      loading={remove.isPending || (remove.isSuccess && Boolean(leaveTo))}
      error={remove.error}
      errorTitle="Could not delete the audience"
    >
      <IrreversibleConsequences>
        <li data-testid="delete-audience-contacts">
          {audience.contactCount === 0 ? 'It has no contacts.' : `Its ${countOf(audience.contactCount, 'contact')} are deleted with it, their subscription status included.`}
        </li>
        <li>Webhooks get no contact.deleted event for them: the audience goes, not each subscription.</li>
        <li>An audience that a broadcast is scheduled for or sending to cannot be deleted until that broadcast is done or cancelled.</li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
