'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import type { SuppressionReason } from './reasons';
import type { ListSuppressionsInput } from './types';

/** How many entries a page holds; "Load more" fetches the next page by its cursor. */
export const SUPPRESSIONS_PAGE_SIZE = 50;

/**
 * The organization's suppressed addresses, newest first, page after page, narrowed by a part of
 * the address and a reason. Called by hand, as the other paged lists of the dashboard are, so the
 * input holds nothing but the procedure's own fields; the key is tRPC's own, so invalidating
 * `suppressions` reaches it.
 */
export function useSuppressions({ search, reason }: { search: string; reason: SuppressionReason | undefined }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input: ListSuppressionsInput = { limit: SUPPRESSIONS_PAGE_SIZE, search: search || undefined, reason };
  const query = useInfiniteQuery({
    queryKey: trpc.suppressions.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.suppressions.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const suppressions = query.data?.pages.flatMap((page) => page.data);
  return { query, suppressions };
}
