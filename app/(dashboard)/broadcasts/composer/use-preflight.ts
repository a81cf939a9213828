'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/**
 * The pre-flight checks of the saved broadcast (its DNS read live, its audience counted), asked
 * again whenever the page saves. A failure (DNS slow, the server unreachable) is shown beside the
 * list and never blocks a send.
 */
export function usePreflight(id: string) {
  const trpc = useTRPC();
  return useQuery({
    // Its own request: it waits on DNS, and a batch would make the page's other answers wait with it.
    ...trpc.broadcasts.preflight.queryOptions({ id }, { trpc: { context: { skipBatch: true } } }),
    staleTime: 30_000,
    retry: false,
  });
}
