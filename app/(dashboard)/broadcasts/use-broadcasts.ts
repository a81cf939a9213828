'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../lib/trpc';

/** How many broadcasts a page of the list holds; "Load more" fetches the next page by its cursor. */
export const BROADCASTS_PAGE_SIZE = 20;

/** While one of them is sending, the list refetches this often so its progress bar moves. */
const SENDING_POLL_MS = 3_000;

/**
 * The organization's broadcasts, newest first, page after page. Called by hand rather than with
 * `infiniteQueryOptions`, which adds a `direction` that the procedure's strict input refuses; the
 * key is tRPC's own, so invalidating `broadcasts` reaches it.
 */
export function useBroadcasts() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: BROADCASTS_PAGE_SIZE };
  const query = useInfiniteQuery({
    queryKey: trpc.broadcasts.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.broadcasts.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (q) => (q.state.data?.pages.some((page) => page.data.some((b) => b.status === 'sending')) ? SENDING_POLL_MS : false),
  });
  const broadcasts = query.data?.pages.flatMap((page) => page.data);
  return { query, broadcasts };
}
