'use client';

import { Fragment, useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { isRefreshing, PagedListFooter, RefreshButton } from '../../../components/paged-list';
import { RetryButton } from '../../../components/retry-button';
import { DeliveriesEmpty } from './deliveries-empty';
import { DeliveriesTable } from './deliveries-table';
import { DeliveryPanel } from './delivery-panel';
import { DeliveryRow } from './delivery-row';
import { DeliverySkeletonRows } from './delivery-skeleton-rows';
import { DeliveryStatusFilter } from './delivery-status-filter';
import type { DeliveryStatus } from './delivery-statuses';
import { useDeliveries } from './use-deliveries';

/** The endpoint's deliveries, filterable by status, each one unfolding to its body and attempts. */
export function DeliveriesSection({ webhookId }: { webhookId: string }) {
  const [status, setStatus] = useState<DeliveryStatus | undefined>(undefined);
  const [expanded, setExpanded] = useState<string | null>(null);
  const { query, deliveries } = useDeliveries(webhookId, status);
  const refreshing = isRefreshing(query);

  return (
    <section aria-labelledby="deliveries-heading" className="space-y-3" data-testid="deliveries">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="deliveries-heading" className="text-base font-semibold text-slate-900">
            Deliveries
          </h2>
          <p className="mt-1 text-sm text-slate-500">Newest first. Select one to see the body sent, every attempt, and to replay it.</p>
        </div>
        <div className="flex items-end gap-2">
          <DeliveryStatusFilter value={status} onChange={setStatus} />
          <RefreshButton query={query} />
        </div>
      </div>

      {query.isPending && (
        <DeliveriesTable busy>
          <DeliverySkeletonRows />
        </DeliveriesTable>
      )}

      {query.isError && !deliveries && <ErrorAlert error={query.error} fallbackTitle="Could not load the deliveries" action={<RetryButton query={query} />} />}

      {deliveries?.length === 0 && <DeliveriesEmpty filtered={status !== undefined} />}

      {deliveries && deliveries.length > 0 && (
        <>
          <DeliveriesTable busy={refreshing}>
            {deliveries.map((delivery) => {
              const open = expanded === delivery.id;
              const panelId = `delivery-${delivery.id}`;
              return (
                <Fragment key={delivery.id}>
                  <DeliveryRow delivery={delivery} expanded={open} panelId={panelId} onToggle={() => setExpanded(open ? null : delivery.id)} />
                  {open && <DeliveryPanel webhookId={webhookId} deliveryId={delivery.id} panelId={panelId} />}
                </Fragment>
              );
            })}
            {query.isFetchingNextPage && <DeliverySkeletonRows count={2} />}
          </DeliveriesTable>
          <PagedListFooter
            count={deliveries.length === 1 ? '1 delivery' : `${deliveries.length} deliveries`}
            testId="deliveries-footer"
            countTestId="deliveries-count"
            query={query}
            failure={{ more: 'Could not load more deliveries', refresh: 'Could not refresh the deliveries' }}
          />
        </>
      )}
    </section>
  );
}
