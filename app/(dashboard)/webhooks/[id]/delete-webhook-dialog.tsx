'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
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

  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Delete endpoint"
      testId="delete-webhook-dialog"
      description={
        <>
          Delete <strong className="font-mono font-semibold break-all text-slate-700">{webhook.url}</strong>?
        </>
      }
    >
      <div className="space-y-4">
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>No more events are sent to this URL, and the retries still scheduled are dropped.</li>
          <li>Its delivery history goes with it.</li>
        </ul>
        <p className="text-sm font-medium text-slate-700">This cannot be undone.</p>
        {remove.error && <ErrorAlert error={remove.error} fallbackTitle="Could not delete the endpoint" />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending || remove.isSuccess} onClick={() => remove.mutate({ id: webhook.id })}>
            Delete endpoint
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
