'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches the key list after a change. */
export function useInvalidateApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.apiKeys.list.pathFilter());
}
