'use client';

import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTRPC } from '../../../lib/trpc';
import { isInFlight } from '../statuses';

/** How often an email that is still on its way is refetched, so its timeline fills by itself. */
export const EMAIL_POLL_MS = 3_000;

/** After the last new event seen here, keep watching this long: opens and clicks follow a delivery closely. */
const SETTLE_MS = 15_000;

/**
 * One email with its history, refetched while its status can still change, and for a little
 * while after this page last saw a new event (an email that has just been delivered).
 */
export function useEmail(id: string) {
  const trpc = useTRPC();
  const seen = useRef<{ events: number; changedAt: number } | null>(null);
  return useQuery({
    ...trpc.emails.get.queryOptions({ id }),
    refetchInterval: (query) => {
      const email = query.state.data;
      if (!email) return false;
      const previous = seen.current;
      // The first answer is no change; a later one with more events is.
      if (!previous || previous.events !== email.events.length) seen.current = { events: email.events.length, changedAt: previous ? Date.now() : 0 };
      const settling = Date.now() - (seen.current?.changedAt ?? 0) < SETTLE_MS;
      return isInFlight(email.status) || settling ? EMAIL_POLL_MS : false;
    },
  });
}
