import { and, eq, sql } from 'drizzle-orm';
import { contacts } from '@/db/schema';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { logContactEvents } from './events';

// A contact already unsubscribed from the audience is not written and has no event: opting out twice changes nothing.
const optOutOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; queued: number }>(
    db,
    null,
    sql`with changed as (
        update audience_memberships m set subscribed = false, updated_at = ${sql.placeholder('now')}::timestamptz
        from contacts c
        where m.audience_id = ${sql.placeholder('audience')}::uuid and m.contact_id = ${sql.placeholder('id')}::uuid and m.subscribed and c.id = m.contact_id
        returning c.id, c.email, c.name, m.subscribed
      ), ${logContactEvents('contact.updated')}
      select x.id, (select count(*)::int from queued) as queued from changed x`,
  ),
);

/**
 * The contact's own request to get no more of the audience's mail, in the caller's transaction:
 * unsubscribed from it, with its `contact.updated` event and webhook deliveries. Answers whether
 * it changed and how many deliveries were queued (the caller wakes webhooks once it has committed).
 */
export async function optOutContact(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  contact: { id: string; organizationId: string; audienceId: string },
): Promise<{ changed: boolean; queued: number }> {
  const [row] = await optOutOn(tx).execute({ id: contact.id, organization: contact.organizationId, audience: contact.audienceId, now: deps.clock.now().toISOString() });
  return { changed: row !== undefined, queued: row?.queued ?? 0 };
}

/**
 * The contact's own request to get nothing more the organization sends to lists, in the caller's
 * transaction: its global `unsubscribed`, whatever each audience and topic says. Answers whether it changed.
 */
export async function unsubscribeFromEverything(tx: Db, deps: Pick<Deps, 'clock'>, contactId: string): Promise<boolean> {
  const changed = await tx
    .update(contacts)
    .set({ unsubscribed: true, updatedAt: deps.clock.now() })
    .where(and(eq(contacts.id, contactId), eq(contacts.unsubscribed, false)))
    .returning({ id: contacts.id });
  return changed.length > 0;
}
