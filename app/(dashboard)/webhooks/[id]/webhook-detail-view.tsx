'use client';

import { MayCall } from '../../../components/may-call';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { BackToWebhooks } from './back-to-webhooks';
import { DeleteWebhookSection } from './delete-webhook-section';
import { DeliveriesSection } from './deliveries-section';
import { SigningSecretSection } from './signing-secret-section';
import { TestEventSection } from './test-event-section';
import { VerifyingSignaturesHelp } from './verifying-signatures-help';
import { WebhookDetailSkeleton } from './webhook-detail-skeleton';
import { WebhookHeader } from './webhook-header';
import { WebhookNotFound } from './webhook-not-found';

export function WebhookDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.webhooks.get.queryOptions({ id }));

  if (query.isPending) return <WebhookDetailSkeleton />;

  if (query.isError) {
    const { code } = describeError(query.error);
    if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <WebhookNotFound />;
    return (
      <div className="space-y-4">
        <BackToWebhooks />
        <ErrorAlert error={query.error} fallbackTitle="Could not load this endpoint" action={<RetryButton query={query} />} />
      </div>
    );
  }

  const webhook = query.data;
  return (
    <div className="space-y-6" data-testid="webhook-detail" data-webhook-id={webhook.id}>
      <BackToWebhooks />
      <WebhookHeader webhook={webhook} />
      <div className="grid gap-6 md:grid-cols-2">
        {/* Signing secrets are hidden from the roles that may not hold secrets (billing, viewer). */}
        <MayCall procedure="webhooks.secret">
          <SigningSecretSection webhookId={webhook.id} />
        </MayCall>
        <TestEventSection webhookId={webhook.id} />
      </div>
      <DeliveriesSection webhookId={webhook.id} />
      <VerifyingSignaturesHelp />
      <DeleteWebhookSection webhook={webhook} />
    </div>
  );
}
