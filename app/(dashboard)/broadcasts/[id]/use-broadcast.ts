'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';
import { isLive } from '../statuses';
import type { Broadcast } from '../types';

/** How often a broadcast that is scheduled, sending or held is refetched, so its progress moves by itself. */
export const BROADCAST_POLL_MS = 2_000;

/** Once all is handed over, delivery outcomes keep arriving for a while: followed less often, for this long after the last hand-over. */
const SETTLING_POLL_MS = 5_000;
const SETTLING_FOR_MS = 30 * 60_000;

function pollInterval(broadcast: Broadcast): number | false {
  if (isLive(broadcast.status)) return BROADCAST_POLL_MS;
  const { counts, sentAt } = broadcast;
  const outcomesPending = counts.sent + counts.bounced < counts.queued;
  const recent = sentAt !== null && Date.now() - Date.parse(sentAt) < SETTLING_FOR_MS;
  return broadcast.status === 'sent' && outcomesPending && recent ? SETTLING_POLL_MS : false;
}

/** One broadcast with its counts, refetched while they can change by themselves. */
export function useBroadcast(id: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.broadcasts.get.queryOptions({ id }),
    refetchInterval: (query) => (query.state.data ? pollInterval(query.state.data) : false),
  });
}
