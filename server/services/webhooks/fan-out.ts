import { sql, type SQL } from 'drizzle-orm';
import { column, columnNames, sqlUuidV7, tableName } from '@/db/raw-sql';
import { events, webhookDeliveries, webhooks } from '@/db/schema';

/*
 * How an event reaches endpoints: in the statement that logs it, one pending delivery per endpoint
 * of the organization subscribed to its type (or to '*'), so an event and its deliveries are
 * committed together or not at all, whichever path logged it.
 */

const QUEUED = ['id', 'webhookId', 'organizationId', 'eventId', 'eventType', 'status', 'attempts', 'nextAttemptAt', 'createdAt', 'updatedAt'] as const;

/** What a CTE of logged events must return for {@link queueDeliveries} to read. */
export const LOGGED_RETURNING = sql`returning ${columnNames(events, ['id', 'organizationId', 'type', 'createdAt'])}`;

/**
 * An INSERT (for a CTE `as (...)`) queueing the deliveries of the events in the CTE named `logged`,
 * which returns {@link LOGGED_RETURNING}; it returns one row per delivery.
 */
export function queueDeliveries(logged: string): SQL {
  const l = (key: 'id' | 'organizationId' | 'type' | 'createdAt') => column(events, key, logged);
  const w = (key: 'id' | 'organizationId' | 'events') => column(webhooks, key, 'w');
  return sql`insert into ${tableName(webhookDeliveries)} (${columnNames(webhookDeliveries, QUEUED)})
    select ${sqlUuidV7}, ${w('id')}, ${l('organizationId')}, ${l('id')}, ${l('type')}, 'pending', 0, ${l('createdAt')}, ${l('createdAt')}, ${l('createdAt')}
    from ${sql.identifier(logged)} join ${tableName(webhooks, 'w')} on ${w('organizationId')} = ${l('organizationId')}
      and (${w('events')} @> array[${l('type')}]::text[] or ${w('events')} @> array['*']::text[])
    returning 1`;
}
