import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Deps } from '../../deps';
import { firstIdAt } from '../../ids';
import type { EventType } from '../../vocabulary/event-types';
import type { Principal } from '../shared/principal';
import { dayWindow, type DayWindow } from './window';

/** One UTC day of the overview's chart: emails of the dashboard's mode, each counted once per kind of event that day. */
export interface DayCounts {
  day: string;
  /** Emails handed to a receiving server (or, in test mode, simulated so). */
  sent: number;
  /** Emails delivered to at least one recipient. */
  delivered: number;
  bounced: number;
  complained: number;
  /** Emails opened by a person. */
  opened: number;
  /** Emails opened by a machine that day (a privacy proxy, a scanner: docs/tracking.md); one opened by both counts in both. */
  machineOpened: number;
}

const COUNTED: EventType[] = ['email.sent', 'email.delivered', 'email.bounced', 'email.complained', 'email.opened'];

const emailOf = sql`${events.data}->>'emailId'`;
/** An open recorded before machines were told apart counts as a person's (as tracking/records.ts reads it). */
const isMachine = sql`coalesce((${events.data}->>'machine')::boolean, false)`;
const emailsWith = (type: EventType, extra = sql`true`) => sql<number>`(count(distinct ${emailOf}) filter (where ${events.type} = ${type} and ${extra}))::int`;

/** The grouped read behind `dailyCounts`, apart so that its plan can be checked (test/overview.test.ts). */
export function dailyCountsQuery(deps: Pick<Deps, 'db'>, principal: Pick<Principal, 'organizationId' | 'mode'>, window: DayWindow) {
  return deps.db
    .select({
      day: sql<string>`to_char(${events.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
      sent: emailsWith('email.sent'),
      delivered: emailsWith('email.delivered'),
      bounced: emailsWith('email.bounced'),
      complained: emailsWith('email.complained'),
      opened: emailsWith('email.opened', sql`not ${isMachine}`),
      machineOpened: emailsWith('email.opened', isMachine),
    })
    .from(events)
    .where(
      and(
        eq(events.organizationId, principal.organizationId),
        gte(events.id, firstIdAt(window.madeSince)),
        gte(events.createdAt, window.since),
        lt(events.createdAt, window.until),
        inArray(events.type, COUNTED),
        sql`${events.data}->>'mode' = ${principal.mode}`,
      ),
    )
    .groupBy(sql`1`);
}

/**
 * The last seven UTC days of the organization's email events in one mode, by the day each event
 * happened (not the day the email was accepted), zeros included, oldest first. One grouped read of
 * the event log: its (organization_id, id) index bounds the scan to the ids made since the window
 * began (UUIDv7 ids are time-ordered), the rows' own times decide the day.
 */
export async function dailyCounts(deps: Pick<Deps, 'db' | 'clock'>, principal: Pick<Principal, 'organizationId' | 'mode'>): Promise<DayCounts[]> {
  const window = dayWindow(deps.clock.now());
  const rows = await dailyCountsQuery(deps, principal, window);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return window.days.map((day) => {
    const row = byDay.get(day);
    return {
      day,
      sent: row?.sent ?? 0,
      delivered: row?.delivered ?? 0,
      bounced: row?.bounced ?? 0,
      complained: row?.complained ?? 0,
      opened: row?.opened ?? 0,
      machineOpened: row?.machineOpened ?? 0,
    };
  });
}
