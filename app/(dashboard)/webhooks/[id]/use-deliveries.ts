'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';
import type { DeliveryStatus } from './delivery-statuses';

/** How many deliveries a page holds; "Load more" fetches the next page by its cursor. */
export const DELIVERIES_PAGE_SIZE = 20;

/** While a delivery shown is pending its retries change it by themselves: refetch this often. */
const PENDING_POLL_MS = 5_000;

/** The endpoint's deliveries, newest first, page after page, optionally of one status. */
export function useDeliveries(webhookId: string, status: DeliveryStatus | undefined) {
  const trpc = useTRPC();
  const query = useInfiniteQuery({
    ...trpc.webhooks.deliveries.infiniteQueryOptions({ id: webhookId, limit: DELIVERIES_PAGE_SIZE, status }, { getNextPageParam: (page) => page.nextCursor }),
    refetchInterval: (q) => (q.state.data?.pages.some((page) => page.data.some((delivery) => delivery.status === 'pending')) ? PENDING_POLL_MS : false),
  });
  const deliveries = query.data?.pages.flatMap((page) => page.data);
  return { query, deliveries };
}
