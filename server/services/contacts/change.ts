import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { audiences, contacts } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { ownAudience } from '../audiences/crud';
import type { Principal } from '../shared/principal';
import { recordContactsDeleted, recordContactUpdated, type ContactAuditScope } from './audit';
import { logContactEvents } from './events';
import { contactView, type ContactSqlRow, type ContactView } from './fields';
import { getContact } from './read';

const c = (key: 'id' | 'email' | 'name' | 'subscribed' | 'createdAt' | 'updatedAt' | 'audienceId', alias = 'c') => column(contacts, key, alias);

// PATCH: only what is given changes; an unchanged contact is not written and has no event. The
// contact as it was (`prior`, the statement's snapshot) says which fields changed, for the audit log.
const updateOn = perDatabase((db: Db) =>
  prepareSql<ContactSqlRow & { name_changed: boolean; subscribed_changed: boolean; queued: number }>(
    db,
    null,
    sql`with changed as (
        update ${tableName(contacts, 'c')} set
          ${sql.identifier('name')} = case when ${sql.placeholder('setName')}::boolean then ${sql.placeholder('name')}::text else ${c('name')} end,
          ${sql.identifier('subscribed')} = coalesce(${sql.placeholder('subscribed')}::boolean, ${c('subscribed')}),
          ${sql.identifier('updated_at')} = ${sql.placeholder('now')}::timestamptz
        from ${tableName(contacts, 'prior')}
        where ${c('id')} = ${sql.placeholder('id')}::uuid and ${c('audienceId')} = ${sql.placeholder('audience')}::uuid and ${c('id', 'prior')} = ${c('id')}
          and (${c('name')} is distinct from case when ${sql.placeholder('setName')}::boolean then ${sql.placeholder('name')}::text else ${c('name')} end
            or ${c('subscribed')} is distinct from coalesce(${sql.placeholder('subscribed')}::boolean, ${c('subscribed')}))
        returning ${c('id')}, ${c('email')}, ${c('name')}, ${c('subscribed')}, ${c('createdAt')}, ${c('updatedAt')},
          ${c('name', 'prior')} is distinct from ${c('name')} as name_changed, ${c('subscribed', 'prior')} is distinct from ${c('subscribed')} as subscribed_changed
      ), ${logContactEvents('contact.updated')}
      select x.*, (select count(*)::int from queued) as queued from changed x`,
  ),
);

// Deletes in one statement: the contacts, the audience's count, their events.
const deleteOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; email: string; queued: number }>(
    db,
    null,
    sql`with changed as (
        delete from ${tableName(contacts, 'c')} where ${c('audienceId')} = ${sql.placeholder('audience')}::uuid and ${c('id')} = any(${sql.placeholder('ids')}::uuid[])
        returning ${c('id')}, ${c('email')}, ${c('name')}, ${c('subscribed')}
      ), counted as (
        update ${tableName(audiences)} set ${column(audiences, 'contactCount')} = ${column(audiences, 'contactCount')} - (select count(*) from changed)
        where ${column(audiences, 'id')} = ${sql.placeholder('audience')}::uuid and exists (select 1 from changed)
      ), ${logContactEvents('contact.deleted')}
      select x.id, x.email, (select count(*)::int from queued) as queued from changed x`,
  ),
);

const wakeIfQueued = (deps: Pick<Deps, 'jobs'>, rows: Array<{ queued: number }>) => {
  if ((rows[0]?.queued ?? 0) > 0) deps.jobs.wake('webhook-delivery', []);
};

/** Changes a contact's name and/or subscription; a person may subscribe a contact again here. */
export async function updateContact(
  deps: Pick<Deps, 'db' | 'clock' | 'jobs'>,
  principal: Principal,
  audienceId: string,
  id: string,
  input: { name?: string | null; subscribed?: boolean },
): Promise<ContactView> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const rows = await deps.db.transaction(async (tx) => {
    const changed = await updateOn(tx).execute({
      organization: principal.organizationId,
      audience: audience.id,
      id,
      now: deps.clock.now().toISOString(),
      setName: input.name !== undefined,
      name: input.name ?? null,
      subscribed: input.subscribed ?? null,
    });
    const [contact] = changed;
    if (contact) await recordContactUpdated(tx, deps, principal, audience, contact, [contact.name_changed && 'name', contact.subscribed_changed && 'subscribed'].filter((field) => field !== false));
    return changed;
  });
  wakeIfQueued(deps, rows);
  const [row] = rows;
  if (row) return contactView({ ...row, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });
  // Nothing changed, or no such contact: the read says which.
  return getContact(deps, principal, audience.id, id);
}

/** Deletes contacts of an audience by id; answers how many were deleted and how many were not there. */
export async function deleteContacts(
  deps: Pick<Deps, 'db' | 'clock' | 'jobs'>,
  principal: Principal,
  audienceId: string,
  ids: string[],
  auditScope: ContactAuditScope = 'batch',
): Promise<{ deleted: number; notFound: number }> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await deps.db.transaction(async (tx) => {
    const deleted = await deleteOn(tx).execute({ organization: principal.organizationId, audience: audience.id, ids: unique, now: deps.clock.now().toISOString() });
    await recordContactsDeleted(tx, deps, principal, audience, deleted, auditScope);
    return deleted;
  });
  wakeIfQueued(deps, rows);
  return { deleted: rows.length, notFound: unique.length - rows.length };
}

export async function deleteContact(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, audienceId: string, id: string): Promise<void> {
  const { deleted } = await deleteContacts(deps, principal, audienceId, [id], 'one');
  if (deleted === 0) throw notFound('Contact');
}
