'use client';

import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import type { CreatedWebhook } from './types';
import { useInvalidateWebhooks } from './use-invalidate-webhooks';
import { WebhookForm } from './webhook-form';

export function CreateWebhookForm({ onCreated, onCancel }: { onCreated: (created: CreatedWebhook) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateWebhooks();
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (created) => {
        void invalidate();
        onCreated(created);
      },
    }),
  );

  return (
    <WebhookForm
      testId="create-webhook-form"
      submitLabel="Add endpoint"
      pending={create.isPending}
      error={create.error}
      errorTitle="Could not add the endpoint"
      onSubmit={(values) => create.mutate(values)}
      onCancel={onCancel}
    />
  );
}
