'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
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
        await queryClient.invalidateQueries(trpc.audiences.list.pathFilter());
        if (leaveTo) {
          router.push(leaveTo);
          // Dropped after leaving, so the page never refetches an audience that is gone.
          queryClient.removeQueries(trpc.audiences.get.queryFilter({ id: audience.id }));
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
    <Dialog
      open={open}
      onClose={close}
      title="Delete audience"
      testId="delete-audience-dialog"
      description={
        <>
          Delete <strong className="font-semibold break-all text-slate-700">{audience.name}</strong>?
        </>
      }
    >
      <div className="space-y-4">
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li data-testid="delete-audience-contacts">
            {audience.contactCount === 0 ? 'It has no contacts.' : `Its ${countOf(audience.contactCount, 'contact')} are deleted with it, their subscription status included.`}
          </li>
          <li>Webhooks get no contact.deleted event for them: the audience goes, not each subscription.</li>
          <li>An audience that a broadcast is scheduled for or sending to cannot be deleted until that broadcast is done or cancelled.</li>
        </ul>
        <p className="text-sm font-medium text-slate-700">This cannot be undone.</p>
        {remove.error && <ErrorAlert error={remove.error} fallbackTitle="Could not delete the audience" />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending || (remove.isSuccess && Boolean(leaveTo))} onClick={() => remove.mutate({ id: audience.id })}>
            Delete audience
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
