'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { mutationDialogProps } from '../../../components/mutation-dialog-props';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IrreversibleConsequences } from '../../../components/irreversible-consequences';
import { useTRPC } from '../../../lib/trpc';
import type { Webhook } from '../types';

/** Delete, after a confirmation that says what stops; then back to the list. */
export function DeleteWebhookDialog({ webhook, open, onClose }: { webhook: Webhook; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.webhooks.list.pathFilter());
        router.push('/webhooks');
        // Dropped after leaving, so the page never refetches an endpoint that is gone.
        queryClient.removeQueries(trpc.webhooks.get.queryFilter({ id: webhook.id }));
      },
    }),
  );

  return (
    <ConfirmDialog
      open={open}
      {...mutationDialogProps(remove, onClose)}
      title="Delete endpoint"
      testId="delete-webhook-dialog"
      description={
        <>
          Delete <strong className="font-mono font-semibold break-all text-slate-700">{webhook.url}</strong>?
        </>
      }
      confirmLabel="Delete endpoint"
      onConfirm={() => remove.mutate({ id: webhook.id })}
      errorTitle="Could not delete the endpoint"
    >
      <IrreversibleConsequences>
        <li>No more events are sent to this URL, and the retries still scheduled are dropped.</li>
        <li>Its delivery history goes with it.</li>
      </IrreversibleConsequences>
    </ConfirmDialog>
  );
}
