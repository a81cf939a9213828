import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql, sqlUuidV7 } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { AppError, validationError } from '../../errors';
import type { ContactPropertyValue } from '@/db/schema';
import { NO_PROPERTY_CHANGES, propertyChecker, type PropertyChanges } from '../contact-properties/assign';
import { AddressError } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { ownAudience } from '../audiences/crud';
import { refuseRuleSegment } from '../segments/crud';
import { eventLogCtes } from '../shared/events';
import { recordContactsWritten, type ContactAuditScope } from './audit';
import { refusePastContactCap } from './cap';
import { contactAddress, contactView, type ContactSqlRow, type ContactView } from './fields';
import { declareConsentSource, sourceOfPrincipal } from '../consent/source';
import { logConsentChanges } from '../consent/events';
import { addedToSegment, contactCreated } from '../automations/triggers/contact-events';
import { raiseEvents } from '../automations/triggers/raise';

/** Contacts of one batch upsert or delete (spec). */
export const CONTACT_BATCH_LIMIT = 1_000;

export interface ContactInput {
  email: string;
  name?: string;
  /** This audience's subscription. */
  subscribed?: boolean;
  /** Resend's names: first and last name, unsubscribed from everything, property values. */
  firstName?: string;
  lastName?: string;
  unsubscribed?: boolean;
  properties?: Record<string, unknown>;
}

interface Row extends ContactSqlRow {
  created: boolean;
  /** A contact this statement made, not unsubscribed from everything (`contact.created` for automations). */
  new_subscriber: boolean;
  queued: number;
}

/**
 * The whole upsert in one statement: the organization's contacts (a new address inserted; an
 * existing one, same id, takes the names and values given), their memberships of the audience
 * (added, or turned unsubscribed), the two counts, and one `contact.created` (the contact joined
 * the audience) or `contact.updated` event per changed contact with its webhook deliveries. An
 * unchanged contact is not written and has no event. Opt-outs only ever grow here: an import never
 * removes one, in the audience (`subscribed`) or from everything (`unsubscribed`). A name not given
 * follows first and last names while it was only ever "first last" (names.ts). The caller holds
 * the organization's lock (the cap), so no other upsert of its contacts runs meanwhile.
 */
const upsertOn = perDatabase((db: Db) => {
  const org = sql`${sql.placeholder('organization')}::uuid`;
  const audience = sql`${sql.placeholder('audience')}::uuid`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const joined = (first: SQL, last: SQL) => sql`nullif(concat_ws(' ', nullif(${first}, ''), nullif(${last}, '')), '')`;
  return prepareSql<Row>(
    db,
    null,
    sql`with input as (
        select * from json_to_recordset(${sql.placeholder('input')}::text::json)
          as i(id uuid, email text, name text, subscribed boolean, first_name text, last_name text, unsubscribed boolean, properties jsonb)
      ), existing as (
        select c.id, c.email, c.name, c.first_name, c.last_name, c.unsubscribed, c.properties, c.pending_since from contacts c
        where c.organization_id = ${org} and c.email in (select email from input)
      ), inserted as (
        insert into contacts (id, organization_id, email, name, first_name, last_name, unsubscribed, properties, created_at, updated_at)
        select i.id, ${org}, i.email, coalesce(i.name, ${joined(sql`i.first_name`, sql`i.last_name`)}), i.first_name, i.last_name,
          coalesce(i.unsubscribed, false), coalesce(i.properties, '{}'::jsonb), ${now}, ${now}
        from input i where not exists (select 1 from existing e where e.email = i.email)
        returning id, email, unsubscribed
      ), merged as (
        select e.id, e.email,
          coalesce(i.name, case when (i.first_name is not null or i.last_name is not null)
              and (e.name is null or e.name = ${joined(sql`e.first_name`, sql`e.last_name`)})
            then ${joined(sql`coalesce(i.first_name, e.first_name)`, sql`coalesce(i.last_name, e.last_name)`)} else e.name end) as name,
          coalesce(i.first_name, e.first_name) as first_name, coalesce(i.last_name, e.last_name) as last_name,
          e.unsubscribed or coalesce(i.unsubscribed, false) as unsubscribed, e.properties || coalesce(i.properties, '{}'::jsonb) as properties,
          (e.name, e.first_name, e.last_name, e.unsubscribed, e.properties) as before
        from existing e join input i on i.email = e.email
      ), renamed as (
        update contacts c set name = x.name, first_name = x.first_name, last_name = x.last_name, unsubscribed = x.unsubscribed, properties = x.properties, updated_at = ${now}
        from merged x
        where c.id = x.id and x.before is distinct from (x.name, x.first_name, x.last_name, x.unsubscribed, x.properties)
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
        select t.id, t.email, coalesce(x.name, i.name, ${joined(sql`i.first_name`, sql`i.last_name`)}) as name,
          coalesce(j.subscribed, p.subscribed) and e.pending_since is null as subscribed, e.pending_since is not null as pending,
          coalesce(j.created_at, p.created_at) as created_at, ${now} as updated_at, coalesce(j.created, false) as created,
          exists (select 1 from inserted n where n.id = t.id and not n.unsubscribed) as new_subscriber
        from targets t join input i on i.email = t.email
          left join merged x on x.id = t.id
          left join joined j on j.contact_id = t.id
          left join prior p on p.contact_id = t.id
          left join renamed r on r.id = t.id
          left join existing e on e.id = t.id
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

type PreparedRow = Omit<ContactInput, 'properties'> & { email: string; properties?: Record<string, ContactPropertyValue> };

/** Lowercased and parsed, values checked by type; a later row of the same address overrides an earlier one. */
function prepareRows(input: ContactInput[], checkProperties: (given: Record<string, unknown> | undefined) => PropertyChanges): { rows: Map<string, PreparedRow>; errors: RowError[] } {
  const rows = new Map<string, PreparedRow>();
  const errors: RowError[] = [];
  input.forEach((row, index) => {
    try {
      const email = contactAddress(row.email);
      const { set, clear } = checkProperties(row.properties);
      if (clear.length > 0) throw validationError(`properties.${clear[0]}: a value cannot be cleared here (PATCH /contacts/{idOrEmail} clears it)`);
      rows.delete(email);
      rows.set(email, { ...row, email, properties: Object.keys(set).length > 0 ? set : undefined });
    } catch (error) {
      if (!(error instanceof AddressError) && !(error instanceof AppError)) throw error;
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
  const audience = await ownAudience(deps.db, principal, audienceId);
  refuseRuleSegment(audience);
  const needsProperties = input.some((row) => row.properties && Object.keys(row.properties).length > 0);
  const { rows, errors } = prepareRows(input, needsProperties ? await propertyChecker(deps.db, principal.organizationId) : () => NO_PROPERTY_CHANGES);
  if (rows.size === 0) return { created: 0, updated: 0, unchanged: 0, errors, changed: [] };
  const emails = [...rows.keys()];
  const written = await deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, sourceOfPrincipal(principal));
    await refusePastContactCap(tx, { organizationId: principal.organizationId, emails, now: deps.clock.now() });
    const upserted = await upsertOn(tx).execute({
      organization: principal.organizationId,
      audience: audience.id,
      now: deps.clock.now().toISOString(),
      input: JSON.stringify(
        [...rows.values()].map((row) => ({
          id: newId(),
          email: row.email,
          name: row.name ?? null,
          subscribed: row.subscribed ?? null,
          first_name: row.firstName ?? null,
          last_name: row.lastName ?? null,
          unsubscribed: row.unsubscribed ?? null,
          properties: row.properties ?? null,
        })),
      ),
    });
    await recordContactsWritten(tx, deps, principal, audience, upserted, auditScope);
    await raiseEvents(tx, deps, principal, [contactCreated(upserted.filter((row) => row.new_subscriber)), addedToSegment(audience.id, upserted.filter((row) => row.created && row.subscribed))]);
    await logConsentChanges(tx, deps);
    return upserted;
  });
  if ((written[0]?.queued ?? 0) > 0) deps.jobs.wake('webhook-delivery', []);
  const created = written.filter((row) => row.created).length;
  return {
    created,
    updated: written.length - created,
    unchanged: rows.size - written.length,
    errors,
    changed: written.map((row) => contactView({ id: row.id, email: row.email, name: row.name, subscribed: row.subscribed, pending: row.pending, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) })),
  };
}
