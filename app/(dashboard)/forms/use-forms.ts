'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../lib/trpc';

export const FORMS_PAGE_SIZE = 20;

/** The organization's forms, newest first, page after page (as the broadcasts list). */
export function useForms() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: FORMS_PAGE_SIZE };
  const query = useInfiniteQuery({
    queryKey: trpc.forms.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.forms.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  return { query, forms: query.data?.pages.flatMap((page) => page.data) };
}
