import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, tableName } from '@/db/raw-sql';
import { broadcasts } from '@/db/schema';
import type { EmailEventType } from '../shared/event-types';

/**
 * A broadcast's outcome counts move with the events of its emails, in the statement or
 * transaction that records them, so a read never counts emails. Which event moves which count:
 */
export const TALLIED_EVENTS = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
} as const satisfies Partial<Record<EmailEventType, keyof typeof broadcasts.$inferSelect>>;

type TalliedEvent = keyof typeof TALLIED_EVENTS;
const TALLIED = Object.entries(TALLIED_EVENTS) as Array<[TalliedEvent, (typeof TALLIED_EVENTS)[TalliedEvent]]>;

/**
 * A CTE for a statement that records email events: `tallied`, adding to each broadcast the events
 * of its emails. `events` is a relation with `email_id` and `type` (the inserted history),
 * `emailsOf` one with `id` and `broadcast_id` (the emails written). Emails of no broadcast (all
 * transactional mail) join nothing and write nothing.
 */
export function tallyCte(events: string, emailsOf: string): SQL {
  const counts = TALLIED.map(([type, key]) => sql`count(*) filter (where h.type = ${sql.raw(`'${type}'`)}) as ${sql.identifier(key)}`);
  const sets = TALLIED.map(([, key]) => sql`${column(broadcasts, key)} = ${column(broadcasts, key, 'b')} + t.${sql.identifier(key)}`);
  return sql`tallied as (
    update ${tableName(broadcasts, 'b')} set ${sql.join(sets, sql.raw(', '))}
    from (
      select u.broadcast_id, ${sql.join(counts, sql.raw(', '))}
      from ${sql.identifier(events)} h join ${sql.identifier(emailsOf)} u on u.id = h.email_id
      where u.broadcast_id is not null
      group by u.broadcast_id
    ) t
    where ${column(broadcasts, 'id', 'b')} = t.broadcast_id
  )`;
}

/** The same for events recorded one email at a time (a bounce report, a complaint, an open, a click, an unsubscribe). */
export async function tallyEvents(tx: Db, broadcastId: string | null, counts: Partial<Record<'sent' | 'delivered' | 'bounced' | 'complained' | 'opened' | 'clicked' | 'openedHuman' | 'clickedHuman' | 'unsubscribed', number>>): Promise<void> {
  if (!broadcastId) return;
  const entries = Object.entries(counts).filter(([, n]) => n && n > 0) as Array<[keyof typeof counts, number]>;
  if (entries.length === 0) return;
  await tx
    .update(broadcasts)
    .set(Object.fromEntries(entries.map(([key, n]) => [key, sql`${broadcasts[key]} + ${n}`])))
    .where(eq(broadcasts.id, broadcastId));
}

/** The counts a list of events moves. */
export function countsOfEvents(types: EmailEventType[]): Partial<Record<(typeof TALLIED_EVENTS)[TalliedEvent], number>> {
  const counts: Partial<Record<(typeof TALLIED_EVENTS)[TalliedEvent], number>> = {};
  for (const type of types) {
    const key = TALLIED_EVENTS[type as TalliedEvent];
    if (key) counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
