'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the list, any open automation and its runs after a change. */
export function useInvalidateAutomations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.automations.pathFilter()), queryClient.invalidateQueries(trpc.automationRuns.pathFilter())]);
}
