'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/**
 * The domains the organization registered (not the shared sandbox, which a pinned key may not
 * send from): what a sending key can be pinned to, and the names the key list shows for its pins.
 */
export function useOwnDomains() {
  const trpc = useTRPC();
  const query = useQuery(trpc.domains.list.queryOptions({}));
  const domains = query.data?.data.filter((domain) => !domain.sandbox) ?? [];
  return { query, domains };
}
