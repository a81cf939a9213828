import { sql } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Db } from '@/db/client';
import { columnNames, jsonRecordset, perDatabase, prepareSql, sqlNamed, tableName } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { LOGGED_RETURNING, queueDeliveries } from '../webhooks/fan-out';
import type { EventType } from './event-types';

export interface EventRow {
  id: string;
  organizationId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
}

const LOGGED = ['id', 'organizationId', 'type', 'data', 'createdAt'] as const;
// Unnamed: the join to the organization's endpoints is planned for each run.
const logOn = perDatabase((db: Db) =>
  prepareSql<{ queued: number }>(
    db,
    null,
    sql`with logged as (
        insert into ${tableName(events)} (${columnNames(events, LOGGED)})
        select ${columnNames(events, LOGGED)} from ${jsonRecordset('log', 'l', events, LOGGED)}
        ${LOGGED_RETURNING}
      ), queued as (${queueDeliveries('logged')})
      select count(*)::int as queued from queued`,
  ),
);

/**
 * Appends to the organization's event log and queues each event's webhook deliveries, in one
 * statement of the caller's transaction. Webhooks are woken when any was queued.
 */
export async function logEvents(tx: Db, deps: Pick<Deps, 'jobs'>, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  const [result] = await logOn(tx).execute({ log: JSON.stringify(rows.map((row) => sqlNamed(events, row))) });
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
