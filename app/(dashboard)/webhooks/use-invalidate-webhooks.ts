'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the endpoint list and any open endpoint, its deliveries included, after a change. */
export function useInvalidateWebhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
}
