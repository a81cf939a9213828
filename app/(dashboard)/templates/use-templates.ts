'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../lib/trpc';

/** How many templates a page of the list holds; "Load more" fetches the next page by its cursor. */
export const TEMPLATES_PAGE_SIZE = 20;

/**
 * The organization's templates, newest first, page after page. The call is made by hand rather
 * than with `infiniteQueryOptions`: that helper adds a `direction` to the input, which this
 * procedure's strict input refuses. The key is tRPC's own, so invalidating `templates` reaches it.
 */
export function useTemplates() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: TEMPLATES_PAGE_SIZE };
  const query = useInfiniteQuery({
    queryKey: trpc.templates.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.templates.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const templates = query.data?.pages.flatMap((page) => page.data);
  return { query, templates };
}
