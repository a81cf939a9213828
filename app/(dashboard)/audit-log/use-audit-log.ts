'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditActionGroup } from '@/server/vocabulary/audit';
import { useTRPC } from '../../lib/trpc';

/** How many rows a page holds; "Load more" fetches the next page by its cursor. */
export const PAGE_SIZE = 25;

/** The organization's audit log, newest first, page after page, of one kind of action or all. */
export function useAuditLog(group: AuditActionGroup | undefined) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.auditLog.list.infiniteQueryOptions({ limit: PAGE_SIZE, group }, { getNextPageParam: (page) => page.next_cursor }));
  const events = query.data?.pages.flatMap((page) => page.data);
  return { query, events };
}
