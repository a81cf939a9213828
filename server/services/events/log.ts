import { and, asc, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Deps } from '../../deps';
import { firstIdAt } from '../../ids';
import type { EventType } from '../../vocabulary/event-types';
import type { Principal } from '../shared/principal';
import { TEST_EVENT_TYPE } from '../../vocabulary/webhook-statuses';
import { eventVisibleIn } from '../webhooks/mode-secrets';
import { eventBody } from '../webhooks/send';

/**
 * How long an event stays out of the log after its id was made. Ids are made just before the
 * transaction that logs them commits, so a reader walking forward by id could step past an event
 * whose transaction was still open; every transaction that logs events is far shorter than this.
 */
export const SETTLE_MS = 5_000;

export interface LoggedEvent {
  /** The event's id: the `webhook-id` header its webhook deliveries carry. */
  id: string;
  type: EventType;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * The organization's events oldest first, after a cursor (an event id), as webhooks carry them:
 * a receiver that was down catches up from the last id it saw, without replays. `nextCursor` is
 * the last id of the page; pass it as `after` to go on (an empty page keeps the cursor). A test
 * principal sees test-mode events only (a live one sees both, as its endpoints receive both).
 */
export async function listEvents(
  deps: Pick<Deps, 'db'>,
  principal: Principal,
  query: { after?: string; limit: number; types?: EventType[] },
): Promise<{ data: LoggedEvent[]; nextCursor: string | null; hasMore: boolean }> {
  const conditions = [
    eq(events.organizationId, principal.organizationId),
    lt(events.id, firstIdAt(Date.now() - SETTLE_MS)),
    ne(events.type, TEST_EVENT_TYPE as EventType),
    eventVisibleIn(principal.mode),
  ];
  if (query.after) conditions.push(gt(events.id, query.after));
  if (query.types && query.types.length > 0) conditions.push(inArray(events.type, query.types));
  const rows = await deps.db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.id))
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const data = page.map((row) => ({ ...eventBody({ id: row.id, type: row.type, createdAt: row.createdAt, data: row.data }), id: row.id, type: row.type }));
  return { data, nextCursor: page.at(-1)?.id ?? query.after ?? null, hasMore };
}
