'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../components/irreversible-consequences';
import { countOf } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { Segment } from './types';

/**
 * Delete an audience, after saying what goes with it (docs/contacts.md): a list takes its
 * memberships and every contact left in no other audience, a contact also in another audience
 * stays there; a rule segment goes alone. The server refuses (409) while a broadcast is scheduled
 * for it, sending to it or held, or an import fills it, and its reason shows here.
 */
export function DeleteAudienceDialog({ audience, open, onClose, leaveTo }: { audience: Segment; open: boolean; onClose: () => void; leaveTo?: string }) {
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
          {audience.rules
            ? 'Its contacts stay contacts, with their values and their other audiences: a segment defined by rules goes alone.'
            : audience.contactCount === 0
              ? 'It has no contacts.'
              : `Its ${countOf(audience.contactCount, 'contact')} leave it, with their subscription status in it. Of them, contacts in no other audience are deleted; those also in another audience stay there.`}
        </li>
        {!audience.rules && audience.contactCount > 0 && <li>Webhooks get no contact.deleted event for them: the audience goes, not each subscription.</li>}
        <li>An audience cannot be deleted while a broadcast is scheduled for it, sending to it or held, or while an import fills it.</li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
