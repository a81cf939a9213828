'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import type { DeliveryStatus } from './delivery-statuses';

/** How many deliveries a page holds; "Load more" fetches the next page by its cursor. */
export const DELIVERIES_PAGE_SIZE = 20;

/** While a delivery shown is pending its retries change it by themselves: refetch this often. */
const PENDING_POLL_MS = 5_000;

/**
 * The endpoint's deliveries, newest first, page after page, optionally of one status. The call is
 * made by hand rather than with `infiniteQueryOptions`: that helper adds a `direction` to the
 * input, which this procedure's strict input refuses. The key is tRPC's own, so invalidating
 * `webhooks` still reaches it.
 */
export function useDeliveries(webhookId: string, status: DeliveryStatus | undefined) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { id: webhookId, limit: DELIVERIES_PAGE_SIZE, status };
  const query = useInfiniteQuery({
    queryKey: trpc.webhooks.deliveries.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.webhooks.deliveries.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (q) => (q.state.data?.pages.some((page) => page.data.some((delivery) => delivery.status === 'pending')) ? PENDING_POLL_MS : false),
  });
  const deliveries = query.data?.pages.flatMap((page) => page.data);
  return { query, deliveries };
}
