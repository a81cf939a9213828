'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the domain list and any open domain after a change, and their count against the plan. */
export function useInvalidateDomains() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.domains.pathFilter()), queryClient.invalidateQueries(trpc.usage.current.pathFilter())]);
}
