'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { RetryButton } from '../../components/retry-button';
import { useTRPC } from '../../lib/trpc';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { CreateWebhookDialog } from './create-webhook-dialog';
import { WebhookRow } from './webhook-row';
import { WebhookSkeletonRows } from './webhook-skeleton-rows';
import { WebhooksEmpty } from './webhooks-empty';
import { WebhooksTable } from './webhooks-table';

export function WebhooksView() {
  const trpc = useTRPC();
  const webhooks = useQuery(trpc.webhooks.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
  const gate = useCreateGate({ procedure: 'webhooks.create',
    liveOnly: 'Endpoints receive the events of both modes: add them in Live.',
    cap: { resource: 'webhookEndpoints', noun: 'webhook endpoint' },
  });

  const addButton = (
    <Button onClick={() => setCreating(true)} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <PlusIcon className="size-4" />
      Add endpoint
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints of your application that receive signed events about your emails, domains, contacts and broadcasts, with how each one did over the last 24 hours."
        actions={webhooks.data && webhooks.data.data.length > 0 ? <GatedActions gate={gate}>{addButton}</GatedActions> : undefined}
      />

      {webhooks.isPending && (
        <WebhooksTable busy>
          <WebhookSkeletonRows />
        </WebhooksTable>
      )}

      {webhooks.isError && <ErrorAlert error={webhooks.error} fallbackTitle="Could not load your webhook endpoints" action={<RetryButton query={webhooks} />} />}

      {webhooks.data && webhooks.data.data.length === 0 && (
        <WebhooksEmpty
          action={
            <GatedActions gate={gate} align="center">
              {addButton}
            </GatedActions>
          }
        />
      )}

      {webhooks.data && webhooks.data.data.length > 0 && (
        <WebhooksTable>
          {webhooks.data.data.map((webhook) => (
            <WebhookRow key={webhook.id} webhook={webhook} />
          ))}
        </WebhooksTable>
      )}

      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
