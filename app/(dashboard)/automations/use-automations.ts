'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../lib/trpc';

/** How many automations a page of the list holds; "Load more" fetches the next page by its cursor. */
export const AUTOMATIONS_PAGE_SIZE = 20;

/** The organization's automations, newest first, page after page (by hand, as templates': the strict input refuses `direction`). */
export function useAutomations() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: AUTOMATIONS_PAGE_SIZE };
  const query = useInfiniteQuery({
    queryKey: trpc.automations.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.automations.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const automations = query.data?.pages.flatMap((page) => page.data);
  return { query, automations };
}
