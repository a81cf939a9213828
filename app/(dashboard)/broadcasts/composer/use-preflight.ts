'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPCClient } from '../../../lib/trpc';
import type { Preflight } from './preflight-types';

/** The client's view of a procedure the router may not declare yet: the proxy calls it by path all the same. */
type PreflightClient = { broadcasts: { preflight: { query: (input: { id: string }, opts?: { signal?: AbortSignal; context?: Record<string, unknown> }) => Promise<Preflight> } } };

/**
 * The pre-flight checks of the saved broadcast (its DNS read live, its audience counted), asked
 * again whenever the page saves. The key has tRPC's shape, so invalidating `broadcasts` reaches
 * it. A failure (the procedure missing, DNS slow) is shown beside the list and never blocks a send.
 */
export function usePreflight(id: string) {
  const client = useTRPCClient() as unknown as PreflightClient;
  return useQuery({
    queryKey: [['broadcasts', 'preflight'], { input: { id }, type: 'query' }],
    // Its own request: it waits on DNS, and a batch would make the page's other answers wait with it.
    queryFn: ({ signal }) => client.broadcasts.preflight.query({ id }, { signal, context: { skipBatch: true } }),
    staleTime: 30_000,
    retry: false,
  });
}
