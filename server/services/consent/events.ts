import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql, sqlUuidV7 } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { eventLogCtes } from '../shared/events';

// One `contact.consent_changed` event per entry the transaction wrote (the entries its declared
// source marked: ./source.ts), logged with its webhook deliveries by the one event-log fragment.
const logOn = perDatabase((db: Db) =>
  prepareSql<{ queued: number }>(
    db,
    null,
    sql`with ${eventLogCtes(sql`select ${sqlUuidV7}, e.organization_id, 'contact.consent_changed',
        jsonb_build_object('contactId', e.contact_id, 'email', e.email, 'action', e.action, 'via', e.via, 'audienceId', e.audience_id,
          'topicId', e.topic_id, 'formId', e.form_id, 'formVersion', e.form_version, 'emailId', e.email_id, 'entryId', e.id::text),
        e.created_at
      from consent_entries e
      where e.batch_id = (nullif(current_setting('eumail.consent_source', true), '')::jsonb->>'batch')::uuid
      order by e.id`)}
      select count(*)::int as queued from queued`,
  ),
);

/**
 * Logs the `contact.consent_changed` events of the consent changes this transaction wrote, at its
 * end (after every write), with their webhook deliveries; the sweep is woken when any was queued.
 */
export async function logConsentChanges(tx: Db, deps: Pick<Deps, 'jobs'>): Promise<void> {
  const [result] = await logOn(tx).execute({});
  if ((result?.queued ?? 0) > 0) deps.jobs.wake('webhook-delivery', []);
}
