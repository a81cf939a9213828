import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts } from '@/db/schema';
import { perDatabase, prepareSql } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { refuseRuleSegment } from '../segments/crud';
import type { Principal } from '../shared/principal';
import { recordContactsDeleted, recordContactUpdated, type ContactAuditScope } from './audit';
import { logContactEvents } from './events';
import { contactView, type ContactSqlRow, type ContactView } from './fields';
import { getContact } from './read';
import { canonicalContactIds } from './aliases';
import { declareConsentSource, sourceOfPrincipal } from '../consent/source';
import { recordEvent } from '../shared/events';
import { logConsentChanges } from '../consent/events';

const p = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}`;

// PATCH: only what is given changes (the name on the contact, the subscription on its membership of
// this audience); an unchanged contact is not written and has no event. `prior`, the statement's
// snapshot, says which fields changed, for the audit log.
const updateOn = perDatabase((db: Db) =>
  prepareSql<ContactSqlRow & { name_changed: boolean; subscribed_changed: boolean; queued: number }>(
    db,
    null,
    sql`with prior as (
        select c.id, c.email, c.name, m.subscribed, m.created_at, c.pending_since from audience_memberships m join contacts c on c.id = m.contact_id
        where m.audience_id = ${p('audience', 'uuid')} and m.contact_id = ${p('id', 'uuid')}
      ), renamed as (
        update contacts c set name = ${p('name', 'text')}, updated_at = ${p('now', 'timestamptz')}
        from prior x where c.id = x.id and ${p('setName', 'boolean')} and x.name is distinct from ${p('name', 'text')}
        returning c.id
      ), resubscribed as (
        update audience_memberships m set subscribed = ${p('subscribed', 'boolean')}, updated_at = ${p('now', 'timestamptz')}
        from prior x where m.audience_id = ${p('audience', 'uuid')} and m.contact_id = x.id
          and ${p('subscribed', 'boolean')} is not null and m.subscribed is distinct from ${p('subscribed', 'boolean')}
        returning m.contact_id
      ), changed as (
        select x.id, x.email, case when r.id is not null then ${p('name', 'text')} else x.name end as name,
          coalesce(${p('subscribed', 'boolean')}, x.subscribed) and x.pending_since is null as subscribed, x.pending_since is not null as pending, x.created_at, ${p('now', 'timestamptz')} as updated_at,
          r.id is not null as name_changed, s.contact_id is not null as subscribed_changed
        from prior x left join renamed r on r.id = x.id left join resubscribed s on s.contact_id = x.id
        where r.id is not null or s.contact_id is not null
      ), ${logContactEvents('contact.updated')}
      select x.*, (select count(*)::int from queued) as queued from changed x`,
  ),
);

// Removes contacts from the audience in one statement: the memberships, every contact left in no
// audience (the spec deletes "its contacts"), both counts, the events.
const deleteOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; email: string; queued: number }>(
    db,
    null,
    sql`with changed as (
        delete from audience_memberships m using contacts c
        where m.audience_id = ${p('audience', 'uuid')} and m.contact_id = any(${p('ids', 'uuid[]')}) and c.id = m.contact_id
        returning c.id, c.email, c.name, m.subscribed
      ), orphans as (
        delete from contacts c where c.id in (select id from changed)
          and not exists (select 1 from audience_memberships o where o.contact_id = c.id and o.audience_id <> ${p('audience', 'uuid')})
        returning c.id
      ), counted as (
        update audiences set contact_count = contact_count - (select count(*) from changed)
        where id = ${p('audience', 'uuid')} and exists (select 1 from changed)
      ), counted_contacts as (
        update organizations set contact_count = contact_count - (select count(*) from orphans)
        where id = ${p('organization', 'uuid')} and exists (select 1 from orphans)
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
    await declareConsentSource(tx, sourceOfPrincipal(principal));
    if (input.subscribed === true) await subscribePending(tx, deps, principal, audience.id, id);
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
    await logConsentChanges(tx, deps);
    return changed;
  });
  wakeIfQueued(deps, rows);
  const [row] = rows;
  if (row) return contactView({ ...row, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });
  // Nothing changed, or no such contact: the read says which.
  return getContact(deps, principal, audience.id, id);
}

/**
 * The organization subscribes a pending contact itself (PATCH `subscribed: true` in an audience):
 * its call, recorded in the ledger as `subscribed` by its key or member, not as a confirmation.
 */
async function subscribePending(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, principal: Principal, audienceId: string, contactId: string): Promise<void> {
  const [settled] = await tx
    .update(contacts)
    .set({ pendingSince: null, unsubscribed: false, updatedAt: deps.clock.now() })
    .where(
      and(
        eq(contacts.id, contactId),
        eq(contacts.organizationId, principal.organizationId),
        isNotNull(contacts.pendingSince),
        sql`exists (select 1 from audience_memberships m where m.audience_id = ${audienceId} and m.contact_id = ${contacts.id})`,
      ),
    )
    .returning();
  if (!settled) return;
  await recordEvent(tx, deps, {
    organizationId: principal.organizationId,
    type: 'contact.updated',
    data: { contactId: settled.id, audienceId: null, email: settled.email, name: settled.name, unsubscribed: false, subscribed: true, pending: false },
  });
}

/** Removes contacts from an audience by id (a contact left in no audience is deleted); answers how many were deleted and how many were not there. */
export async function deleteContacts(
  deps: Pick<Deps, 'db' | 'clock' | 'jobs'>,
  principal: Principal,
  audienceId: string,
  ids: string[],
  auditScope: ContactAuditScope = 'batch',
): Promise<{ deleted: number; notFound: number }> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  refuseRuleSegment(audience);
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const canonical = await canonicalContactIds(deps.db, principal.organizationId, unique);
  const rows = await deps.db.transaction(async (tx) => {
    const deleted = await deleteOn(tx).execute({ organization: principal.organizationId, audience: audience.id, ids: canonical, now: deps.clock.now().toISOString() });
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
