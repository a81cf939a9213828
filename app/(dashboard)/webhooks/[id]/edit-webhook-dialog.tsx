'use client';

import { useMutation } from '@tanstack/react-query';
import { Dialog } from '../../../components/dialog';
import { useTRPC } from '../../../lib/trpc';
import type { Webhook } from '../types';
import { useInvalidateWebhooks } from '../use-invalidate-webhooks';
import { WebhookForm, type WebhookValues } from '../webhook-form';

/** Change the URL or the events; only what changed is sent (a new URL is checked again by the server). */
export function EditWebhookDialog({ webhook, open, onClose }: { webhook: Webhook; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateWebhooks();
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );

  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };

  const submit = ({ url, events }: WebhookValues) => {
    const sameEvents = events.length === webhook.events.length && events.every((type) => webhook.events.includes(type));
    update.mutate({ id: webhook.id, url: url === webhook.url ? undefined : url, events: sameEvents ? undefined : events });
  };

  return (
    <Dialog open={open} onClose={close} testId="edit-webhook-dialog" title="Edit endpoint" description="A new URL is used from the next attempt on, retries included. A new choice of events applies to events from now on.">
      <WebhookForm
        testId="edit-webhook-form"
        initial={{ url: webhook.url, events: webhook.events }}
        submitLabel="Save changes"
        pending={update.isPending}
        error={update.error}
        errorTitle="Could not save the endpoint"
        onSubmit={submit}
        onCancel={close}
      />
    </Dialog>
  );
}
