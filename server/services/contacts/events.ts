import { sql } from 'drizzle-orm';
import { columnNames, sqlUuidV7, tableName } from '@/db/raw-sql';
import { events } from '@/db/schema';
import { LOGGED_RETURNING, queueDeliveries } from '../webhooks/fan-out';

const EVENT_COLUMNS = ['id', 'organizationId', 'type', 'data', 'createdAt'] as const;

/**
 * CTEs `logged` and `queued` (for a `with …`): the event of each contact a CTE named `changed`
 * returns (`id`, `email`, `name`, `subscribed`), logged with its webhook deliveries. Every path
 * that changes contacts logs the same event shape this way. Placeholders: `organization`,
 * `audience`, `now`.
 */
export const logContactEvents = (type: 'contact.updated' | 'contact.deleted') => sql`logged as (
    insert into ${tableName(events)} (${columnNames(events, EVENT_COLUMNS)})
    select ${sqlUuidV7}, ${sql.placeholder('organization')}::uuid, ${type},
      jsonb_build_object('contactId', x.id, 'audienceId', ${sql.placeholder('audience')}::uuid, 'email', x.email, 'name', x.name, 'subscribed', x.subscribed),
      ${sql.placeholder('now')}::timestamptz
    from changed x
    ${LOGGED_RETURNING}
  ), queued as (${queueDeliveries('logged')})`;
