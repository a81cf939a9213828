'use client';

import { useQuery } from '@tanstack/react-query';
import { CopyButton } from '../../../components/copy-button';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';
import { useTRPC } from '../../../lib/trpc';
import { AttemptsList } from './attempts-list';
import { DELIVERY_COLUMNS } from './deliveries-table';
import { PayloadView } from './payload-view';
import { ReplayButton } from './replay-button';

/** While the delivery is pending its retries add attempts: refetch this often. */
const PENDING_POLL_MS = 5_000;

/** A delivery unfolded under its row: the body it sends, every attempt, and a replay. */
export function DeliveryPanel({ webhookId, deliveryId, panelId }: { webhookId: string; deliveryId: string; panelId: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.webhooks.delivery.queryOptions({ id: webhookId, deliveryId }),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });

  return (
    <tr id={panelId} data-testid="delivery-panel" data-delivery-id={deliveryId}>
      <td colSpan={DELIVERY_COLUMNS.length} className="border-l-2 border-indigo-300 bg-slate-50/80 px-5 py-4">
        {query.isPending && (
          <div className="grid gap-4 lg:grid-cols-2" aria-busy="true">
            <Skeleton className="h-40 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        )}
        {query.isError && <ErrorAlert error={query.error} fallbackTitle="Could not load this delivery" action={<RetryButton query={query} />} />}
        {query.data && (
          <div className="space-y-4">
            <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
              <p className="flex min-w-0 items-center gap-2 text-xs text-slate-500">
                <span className="whitespace-nowrap">webhook-id</span>
                <code className="min-w-0 font-mono break-all text-slate-700" data-testid="delivery-event-id">
                  {query.data.eventId}
                </code>
                <CopyButton text={query.data.eventId} size="sm" iconOnly describe="webhook-id" />
              </p>
              <ReplayButton webhookId={webhookId} delivery={query.data} />
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <PayloadView payload={query.data.payload} />
              <AttemptsList attempts={query.data.attemptsMade} />
            </div>
          </div>
        )}
      </td>
    </tr>
  );
}
