import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql, sqlUuidV7 } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { AddressError } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { ownAudience } from '../audiences/crud';
import { eventLogCtes } from '../shared/events';
import { recordContactsWritten, type ContactAuditScope } from './audit';
import { refusePastContactCap } from './cap';
import { contactAddress, contactView, type ContactSqlRow, type ContactView } from './fields';

/** Contacts of one batch upsert or delete (spec). */
export const CONTACT_BATCH_LIMIT = 1_000;

export interface ContactInput {
  email: string;
  name?: string;
  subscribed?: boolean;
}

interface Row extends ContactSqlRow {
  created: boolean;
  queued: number;
}

/**
 * The whole upsert in one statement: the organization's contacts (a new address inserted, a name
 * given changes an existing one, same id), their memberships of the audience (added, or turned
 * unsubscribed: an import never removes an opt-out), the two counts, and one `contact.created` (the
 * contact joined the audience) or `contact.updated` event per changed contact with its webhook
 * deliveries. An unchanged contact is not written and has no event. The caller holds the
 * organization's lock (the cap), so no other upsert of its contacts runs meanwhile.
 */
const upsertOn = perDatabase((db: Db) => {
  const org = sql`${sql.placeholder('organization')}::uuid`;
  const audience = sql`${sql.placeholder('audience')}::uuid`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  return prepareSql<Row>(
    db,
    null,
    sql`with input as (
        select * from json_to_recordset(${sql.placeholder('input')}::text::json) as i(id uuid, email text, name text, subscribed boolean)
      ), existing as (
        select c.id, c.email, c.name from contacts c where c.organization_id = ${org} and c.email in (select email from input)
      ), inserted as (
        insert into contacts (id, organization_id, email, name, created_at, updated_at)
        select i.id, ${org}, i.email, i.name, ${now}, ${now} from input i where not exists (select 1 from existing e where e.email = i.email)
        returning id, email
      ), renamed as (
        update contacts c set name = i.name, updated_at = ${now}
        from existing e join input i on i.email = e.email
        where c.id = e.id and i.name is not null and e.name is distinct from i.name
        returning c.id
      ), targets as (
        select id, email from inserted union all select id, email from existing
      ), prior as (
        select m.contact_id, m.subscribed, m.created_at from audience_memberships m
        where m.audience_id = ${audience} and m.contact_id in (select id from existing)
      ), joined as (
        insert into audience_memberships as m (id, audience_id, contact_id, organization_id, subscribed, created_at, updated_at)
        select ${sqlUuidV7}, ${audience}, t.id, ${org}, coalesce(i.subscribed, true), ${now}, ${now} from targets t join input i on i.email = t.email
        on conflict (audience_id, contact_id) do update set subscribed = false, updated_at = ${now}
        where m.subscribed and not excluded.subscribed
        returning m.contact_id, m.subscribed, m.created_at, (m.xmax = 0) as created
      ), upserted as (
        select t.id, t.email, coalesce(i.name, e.name) as name, coalesce(j.subscribed, p.subscribed) as subscribed,
          coalesce(j.created_at, p.created_at) as created_at, ${now} as updated_at, coalesce(j.created, false) as created
        from targets t join input i on i.email = t.email
          left join existing e on e.id = t.id
          left join joined j on j.contact_id = t.id
          left join prior p on p.contact_id = t.id
          left join renamed r on r.id = t.id
        where j.contact_id is not null or r.id is not null
      ), counted as (
        update audiences set contact_count = contact_count + (select count(*) from joined where created)
        where id = ${audience} and exists (select 1 from joined where created)
      ), counted_contacts as (
        update organizations set contact_count = contact_count + (select count(*) from inserted)
        where id = ${org} and exists (select 1 from inserted)
      ), ${eventLogCtes(sql`select ${sqlUuidV7}, ${org}, case when u.created then 'contact.created' else 'contact.updated' end,
          jsonb_build_object('contactId', u.id, 'audienceId', ${audience}, 'email', u.email, 'name', u.name, 'subscribed', u.subscribed), ${now}
        from upserted u`)}
      select u.*, (select count(*)::int from queued) as queued from upserted u`,
  );
});

export interface RowError {
  /** The row's position in the request. */
  index: number;
  email: string;
  error: string;
}

export interface UpsertOutcome {
  created: number;
  updated: number;
  unchanged: number;
  errors: RowError[];
  /** The contacts created or updated (unchanged ones are not read back). */
  changed: ContactView[];
}

/** Lowercased and parsed; a later row of the same address overrides an earlier one. */
function prepareRows(input: ContactInput[]): { rows: Map<string, ContactInput & { email: string }>; errors: RowError[] } {
  const rows = new Map<string, ContactInput & { email: string }>();
  const errors: RowError[] = [];
  input.forEach((row, index) => {
    try {
      const email = contactAddress(row.email);
      rows.delete(email);
      rows.set(email, { ...row, email });
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      errors.push({ index, email: row.email, error: error.message });
    }
  });
  return { rows, errors };
}

/**
 * Adds or updates contacts of an audience: the valid rows in one statement, the invalid ones
 * listed without failing the others. The whole request is refused (403) when its new addresses
 * would take the organization past its plan's contacts.
 */
export async function upsertContacts(
  deps: Pick<Deps, 'db' | 'clock' | 'jobs'>,
  principal: Principal,
  audienceId: string,
  input: ContactInput[],
  auditScope: ContactAuditScope = 'batch',
): Promise<UpsertOutcome> {
  const { rows, errors } = prepareRows(input);
  const audience = await ownAudience(deps.db, principal, audienceId);
  if (rows.size === 0) return { created: 0, updated: 0, unchanged: 0, errors, changed: [] };
  const emails = [...rows.keys()];
  const written = await deps.db.transaction(async (tx) => {
    await refusePastContactCap(tx, { organizationId: principal.organizationId, emails, now: deps.clock.now() });
    const upserted = await upsertOn(tx).execute({
      organization: principal.organizationId,
      audience: audience.id,
      now: deps.clock.now().toISOString(),
      input: JSON.stringify([...rows.values()].map((row) => ({ id: newId(), email: row.email, name: row.name ?? null, subscribed: row.subscribed ?? null }))),
    });
    await recordContactsWritten(tx, deps, principal, audience, upserted, auditScope);
    return upserted;
  });
  if ((written[0]?.queued ?? 0) > 0) deps.jobs.wake('webhook-delivery', []);
  const created = written.filter((row) => row.created).length;
  return {
    created,
    updated: written.length - created,
    unchanged: rows.size - written.length,
    errors,
    changed: written.map((row) => contactView({ id: row.id, email: row.email, name: row.name, subscribed: row.subscribed, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) })),
  };
}
