'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/**
 * This month's and today's use against the plan. The sidebar asks on every page, so one answer
 * serves it for a minute; the billing page (`fresh`) asks again whenever it opens, showing the
 * answer it has meanwhile. A change made here invalidates it at once.
 */
export function useUsage({ fresh = false }: { fresh?: boolean } = {}) {
  const trpc = useTRPC();
  return useQuery(trpc.usage.current.queryOptions({}, { staleTime: 60_000, refetchOnMount: fresh ? 'always' : true }));
}

/** Refetches the usage (page and sidebar) and the organization's plan after a billing change. */
export function useInvalidateBilling() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.usage.pathFilter()), queryClient.invalidateQueries(trpc.organization.pathFilter())]);
}
