import { sql, type SQL } from 'drizzle-orm';
import { column, tableName } from '@/db/raw-sql';
import { broadcasts } from '@/db/schema';
import type { EmailEventType } from '../../vocabulary/event-types';

/**
 * A broadcast's outcome counts move with the events of its emails, in the statement that records
 * them, so a read never counts emails. Which event moves which count by its type alone:
 */
export const TALLIED_EVENTS = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
} as const satisfies Partial<Record<EmailEventType, BroadcastCount>>;

/** Every count of a broadcast an event can move. Opens, clicks and unsubscribes count each email once, so their recorder says when (an event's explicit `counts`). */
export const BROADCAST_COUNTS = ['sent', 'delivered', 'bounced', 'complained', 'opened', 'clicked', 'openedHuman', 'clickedHuman', 'unsubscribed'] as const;
export type BroadcastCount = (typeof BROADCAST_COUNTS)[number];
export type BroadcastCounts = Partial<Record<BroadcastCount, number>>;

const byType = new Map<string, BroadcastCount>(Object.entries(TALLIED_EVENTS));

/**
 * A CTE `tallied` (for a `with …`) adding to each broadcast what the recorded events of its emails
 * move: `events` is a relation with `email_id`, `type` and `counts` (jsonb, explicit counts or
 * null), `emailsOf` one with `id` and `broadcast_id`. Emails of no broadcast (all transactional
 * mail) join nothing and write nothing; nor does a broadcast whose counts
 * these events leave as they are.
 */
export function tallyCte(events: string, emailsOf: string): SQL {
  const moved = BROADCAST_COUNTS.map((key) => {
    const types = [...byType].filter(([, count]) => count === key).map(([type]) => sql.raw(`'${type}'`));
    const implied = types.length > 0 ? sql`count(*) filter (where h.type in (${sql.join(types, sql.raw(', '))}))` : sql`0`;
    return sql`(${implied} + coalesce(sum((h.counts ->> ${sql.raw(`'${key}'`)})::int), 0))`;
  });
  const sums = moved.map((expression, i) => sql`${expression} as ${sql.identifier(BROADCAST_COUNTS[i]!)}`);
  const sets = BROADCAST_COUNTS.map((key) => sql`${column(broadcasts, key)} = ${column(broadcasts, key, 'b')} + t.${sql.identifier(key)}`);
  return sql`tallied as (
    update ${tableName(broadcasts, 'b')} set ${sql.join(sets, sql.raw(', '))}
    from (
      select u.broadcast_id, ${sql.join(sums, sql.raw(', '))}
      from ${sql.identifier(events)} h join ${sql.identifier(emailsOf)} u on u.id = h.email_id
      where u.broadcast_id is not null
      group by u.broadcast_id
      having ${sql.join(moved, sql.raw(' + '))} > 0
    ) t
    where ${column(broadcasts, 'id', 'b')} = t.broadcast_id
  )`;
}
