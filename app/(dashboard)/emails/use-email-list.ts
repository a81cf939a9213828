'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import { listInput, type EmailFilters } from './filters';

/** How many emails a page of the list holds; "Load more" fetches the next page by its cursor. */
export const PAGE_SIZE = 20;

/** The filtered list, page after page, newest first. */
export function useEmailList(filters: EmailFilters) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.emails.list.infiniteQueryOptions(listInput(filters, PAGE_SIZE), { getNextPageParam: (page) => page.next_cursor }));
  const emails = query.data?.pages.flatMap((page) => page.data);
  return { query, emails };
}
