'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/**
 * This month's and today's use against the plan. The sidebar asks on every page, so one answer
 * serves for a minute (the billing page shares it); a change made here invalidates it at once.
 */
export function useUsage() {
  const trpc = useTRPC();
  return useQuery(trpc.usage.current.queryOptions({}, { staleTime: 60_000 }));
}

/** Refetches the usage (page and sidebar) and the organization's plan after a billing change. */
export function useInvalidateBilling() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.usage.pathFilter()), queryClient.invalidateQueries(trpc.organization.pathFilter())]);
}
