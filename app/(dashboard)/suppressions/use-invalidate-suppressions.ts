'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches every list of suppressed addresses shown (any search or reason) after a change. */
export function useInvalidateSuppressions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.suppressions.pathFilter());
}
