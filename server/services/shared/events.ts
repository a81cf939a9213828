import { sql, type SQL } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Db } from '@/db/client';
import { columnNames, perDatabase, prepareSql, recordsetOf, sqlNamed, tableName } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { LOGGED_RETURNING, queueDeliveries } from '../webhooks/fan-out';
import type { EventType } from '../../vocabulary/event-types';

export interface EventRow {
  id: string;
  organizationId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
}

const LOGGED = ['id', 'organizationId', 'type', 'data', 'createdAt'] as const;

/**
 * CTEs `logged` and `queued` (for a `with …`): the events `rows` selects (`id`, `organization_id`,
 * `type`, `data`, `created_at`, in that order) appended to the event log, and one pending webhook
 * delivery per endpoint subscribed to each, so an event and its deliveries are committed together
 * or not at all. Every statement that logs events does it through this fragment; the caller's
 * answer reads `(select count(*) from queued)` to know whether to wake the webhook sweep.
 */
export function eventLogCtes(rows: SQL): SQL {
  return sql`logged as (
    insert into ${tableName(events)} (${columnNames(events, LOGGED)})
    ${rows}
    ${LOGGED_RETURNING}
  ), queued as (${queueDeliveries('logged')})`;
}

// Unnamed: the join to the organization's endpoints is planned for each run.
const logOn = perDatabase((db: Db) =>
  prepareSql<{ queued: number }>(
    db,
    null,
    sql`with ${eventLogCtes(sql`select ${columnNames(events, LOGGED)} from ${recordsetOf('log', 'l', events, LOGGED)}`)}
      select count(*)::int as queued from queued`,
  ),
);

/**
 * Appends to the organization's event log and queues each event's webhook deliveries, in one
 * statement of the caller's transaction. Webhooks are woken when any was queued.
 */
export async function logEvents(tx: Db, deps: Pick<Deps, 'jobs'>, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  const [result] = await logOn(tx).execute({ log: rows.map((row) => sqlNamed(events, row)) });
  if ((result?.queued ?? 0) > 0) deps.jobs.wake('webhook-delivery', []);
}

/** Records what happened, in the caller's transaction; webhooks deliver from this log. */
export async function recordEvent(
  tx: Db,
  deps: Pick<Deps, 'clock' | 'jobs'>,
  input: { organizationId: string; type: EventType; data: Record<string, unknown> },
): Promise<void> {
  await logEvents(tx, deps, [{ id: newId(), organizationId: input.organizationId, type: input.type, data: input.data, createdAt: deps.clock.now() }]);
}
