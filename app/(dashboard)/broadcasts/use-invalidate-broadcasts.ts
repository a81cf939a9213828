'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Refetches every broadcast query (list, detail, preview, pre-flight) after a change. */
export function useInvalidateBroadcasts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.broadcasts.pathFilter());
}
