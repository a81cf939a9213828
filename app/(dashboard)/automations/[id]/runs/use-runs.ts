'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '../../../../lib/trpc';
import type { RunStatus } from '../../types';

export const RUNS_PAGE_SIZE = 20;

/** An automation's runs in the mode shown, newest first, page after page; `status` keeps one status only. */
export function useRuns(id: string, status: RunStatus | '') {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { id, limit: RUNS_PAGE_SIZE, ...(status ? { status } : {}) };
  const query = useInfiniteQuery({
    queryKey: trpc.automationRuns.list.infiniteQueryKey(input),
    queryFn: ({ pageParam, signal }) => client.automationRuns.list.query({ ...input, cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: 5_000,
  });
  const runs = query.data?.pages.flatMap((page) => page.data);
  return { query, runs };
}
