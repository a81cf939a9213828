import { sql } from 'drizzle-orm';
import { sqlUuidV7 } from '@/db/raw-sql';
import { eventLogCtes } from '../shared/events';

/**
 * CTEs `logged` and `queued` (for a `with …`): the event of each contact a CTE named `changed`
 * returns (`id`, `email`, `name`, `subscribed`), logged with its webhook deliveries. Every path
 * that changes contacts logs the same event shape this way. Placeholders: `organization`,
 * `audience`, `now`.
 */
export const logContactEvents = (type: 'contact.updated' | 'contact.deleted') =>
  eventLogCtes(sql`select ${sqlUuidV7}, ${sql.placeholder('organization')}::uuid, ${type},
      jsonb_build_object('contactId', x.id, 'audienceId', ${sql.placeholder('audience')}::uuid, 'email', x.email, 'name', x.name, 'subscribed', x.subscribed),
      ${sql.placeholder('now')}::timestamptz
    from changed x`);
