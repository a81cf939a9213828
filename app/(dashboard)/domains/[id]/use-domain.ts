'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useTRPC } from '../../../lib/trpc';
import { POLL_INTERVAL_MS } from '../refetch';

/** After "Verify now", keep refetching this long even if the server was not polling (a verified domain's re-check). */
const WATCH_AFTER_VERIFY_MS = 20_000;

/**
 * One domain, refetched every few seconds while the server polls its DNS (and briefly after a
 * manual check), so its status and records flip without a reload.
 */
export function useDomain(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const watchUntil = useRef(0);
  const query = useQuery({
    ...trpc.domains.get.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data?.isPolling || Date.now() < watchUntil.current ? POLL_INTERVAL_MS : false),
  });

  /** Refetch now and keep watching for a while: a check has just been asked for. */
  const watch = useCallback(() => {
    watchUntil.current = Date.now() + WATCH_AFTER_VERIFY_MS;
    void queryClient.invalidateQueries(trpc.domains.get.queryFilter({ id }));
    void queryClient.invalidateQueries(trpc.domains.list.pathFilter());
  }, [queryClient, trpc, id]);

  return { query, watch };
}
