'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the endpoint list and any open endpoint, its deliveries included, after a change, and their count against the plan. */
export function useInvalidateWebhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.webhooks.pathFilter()), queryClient.invalidateQueries(trpc.usage.current.pathFilter())]);
}
