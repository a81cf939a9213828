'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** While a step is open the checklist asks again this often, so it ticks by itself. */
const SETUP_POLL_MS = 5_000;
/** The chart and failures move with every send: often while getting started, calmly after. */
const ACTIVITY_POLL_MS = { settingUp: 5_000, setUp: 30_000 };

/** Where getting started stands, asked again every few seconds until every step is done. */
export function useChecklist() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.overview.checklist.queryOptions({}),
    refetchInterval: (query) => (query.state.data?.done ? false : SETUP_POLL_MS),
  });
}

/** The last seven days and the recent failures, in the dashboard's mode. */
export function useActivity({ settingUp }: { settingUp: boolean }) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.overview.activity.queryOptions({}),
    refetchInterval: settingUp ? ACTIVITY_POLL_MS.settingUp : ACTIVITY_POLL_MS.setUp,
  });
}

export type ActivityQuery = ReturnType<typeof useActivity>;

/** Asks for the checklist again at once: a step was just taken here (a domain added, a key created). */
export function useRefreshChecklist() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.overview.checklist.queryFilter());
}
