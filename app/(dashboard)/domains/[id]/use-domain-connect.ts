'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/**
 * Whether the domain's DNS provider can apply the records through Domain Connect. The server
 * asks the provider over the network on every call (DNS, then HTTPS with 5 s timeouts), so the
 * answer is kept for a while, never refetched on focus, and fetched in its own request so the
 * page's other calls never wait on it.
 */
export function useDomainConnect(id: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.domains.domainConnect.queryOptions({ id }, { trpc: { context: { skipBatch: true } } }),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}
