import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { audiences, contacts } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { ownAudience } from '../audiences/crud';
import type { Principal } from '../shared/principal';
import { logContactEvents } from './events';
import { contactView, type ContactView } from './fields';
import { getContact } from './read';

const c = (key: 'id' | 'email' | 'name' | 'subscribed' | 'createdAt' | 'updatedAt' | 'audienceId', alias = 'c') => column(contacts, key, alias);

// PATCH: only what is given changes; an unchanged contact is not written and has no event.
const updateOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; email: string; name: string | null; subscribed: boolean; created_at: string; updated_at: string; queued: number }>(
    db,
    null,
    sql`with changed as (
        update ${tableName(contacts, 'c')} set
          ${sql.identifier('name')} = case when ${sql.placeholder('setName')}::boolean then ${sql.placeholder('name')}::text else ${c('name')} end,
          ${sql.identifier('subscribed')} = coalesce(${sql.placeholder('subscribed')}::boolean, ${c('subscribed')}),
          ${sql.identifier('updated_at')} = ${sql.placeholder('now')}::timestamptz
        where ${c('id')} = ${sql.placeholder('id')}::uuid and ${c('audienceId')} = ${sql.placeholder('audience')}::uuid
          and (${c('name')} is distinct from case when ${sql.placeholder('setName')}::boolean then ${sql.placeholder('name')}::text else ${c('name')} end
            or ${c('subscribed')} is distinct from coalesce(${sql.placeholder('subscribed')}::boolean, ${c('subscribed')}))
        returning ${c('id')}, ${c('email')}, ${c('name')}, ${c('subscribed')}, ${c('createdAt')}, ${c('updatedAt')}
      ), ${logContactEvents('contact.updated')}
      select x.*, (select count(*)::int from queued) as queued from changed x`,
  ),
);

// Deletes in one statement: the contacts, the audience's count, their events.
const deleteOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; queued: number }>(
    db,
    null,
    sql`with changed as (
        delete from ${tableName(contacts, 'c')} where ${c('audienceId')} = ${sql.placeholder('audience')}::uuid and ${c('id')} = any(${sql.placeholder('ids')}::uuid[])
        returning ${c('id')}, ${c('email')}, ${c('name')}, ${c('subscribed')}
      ), counted as (
        update ${tableName(audiences)} set ${column(audiences, 'contactCount')} = ${column(audiences, 'contactCount')} - (select count(*) from changed)
        where ${column(audiences, 'id')} = ${sql.placeholder('audience')}::uuid and exists (select 1 from changed)
      ), ${logContactEvents('contact.deleted')}
      select x.id, (select count(*)::int from queued) as queued from changed x`,
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
  const rows = await updateOn(deps.db).execute({
    organization: principal.organizationId,
    audience: audience.id,
    id,
    now: deps.clock.now().toISOString(),
    setName: input.name !== undefined,
    name: input.name ?? null,
    subscribed: input.subscribed ?? null,
  });
  wakeIfQueued(deps, rows);
  const [row] = rows;
  if (row) return contactView({ ...row, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });
  // Nothing changed, or no such contact: the read says which.
  return getContact(deps, principal, audience.id, id);
}

/** Deletes contacts of an audience by id; answers how many were deleted and how many were not there. */
export async function deleteContacts(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, audienceId: string, ids: string[]): Promise<{ deleted: number; notFound: number }> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await deleteOn(deps.db).execute({ organization: principal.organizationId, audience: audience.id, ids: unique, now: deps.clock.now().toISOString() });
  wakeIfQueued(deps, rows);
  return { deleted: rows.length, notFound: unique.length - rows.length };
}

export async function deleteContact(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, audienceId: string, id: string): Promise<void> {
  const { deleted } = await deleteContacts(deps, principal, audienceId, [id]);
  if (deleted === 0) throw notFound('Contact');
}
