import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, perDatabase, prepareSql, sqlUuidV7, tableName } from '@/db/raw-sql';
import { audiences, contacts } from '@/db/schema';
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

const c = (key: 'id' | 'email' | 'name' | 'subscribed' | 'createdAt' | 'updatedAt' | 'audienceId') => column(contacts, key, 'c');
const CONTACT_COLUMNS = ['id', 'organizationId', 'audienceId', 'email', 'name', 'subscribed', 'createdAt', 'updatedAt'] as const;

/**
 * The whole upsert in one statement: the contacts (a new address inserted, an existing one
 * updated in place, same id), the audience's count, and one `contact.created` or
 * `contact.updated` event per changed contact with its webhook deliveries. An unchanged contact
 * is not written and has no event. A name is changed only when one is given, and the
 * subscription can only be turned off here: an import never removes an opt-out.
 */
const upsertOn = perDatabase((db: Db) => {
  const org = sql`${sql.placeholder('organization')}::uuid`;
  const audience = sql`${sql.placeholder('audience')}::uuid`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const nextName = sql`coalesce(excluded.${sql.identifier('name')}, ${c('name')})`;
  const nextSubscribed = sql`(${c('subscribed')} and excluded.${sql.identifier('subscribed')})`;
  return prepareSql<Row>(
    db,
    null,
    sql`with input as (
        select * from json_to_recordset(${sql.placeholder('input')}::text::json) as i(id uuid, email text, name text, subscribed boolean)
      ), upserted as (
        insert into ${tableName(contacts, 'c')} (${columnNames(contacts, CONTACT_COLUMNS)})
        select i.id, ${org}, ${audience}, i.email, i.name, coalesce(i.subscribed, true), ${now}, ${now} from input i
        on conflict (${columnNames(contacts, ['audienceId', 'email'])}) do update set
          ${sql.identifier('name')} = ${nextName}, ${sql.identifier('subscribed')} = ${nextSubscribed}, ${sql.identifier('updated_at')} = ${now}
        where ${c('name')} is distinct from ${nextName} or ${c('subscribed')} is distinct from ${nextSubscribed}
        returning ${c('id')}, ${c('email')}, ${c('name')}, ${c('subscribed')}, ${c('createdAt')}, ${c('updatedAt')}, (c.xmax = 0) as created
      ), counted as (
        update ${tableName(audiences)} set ${column(audiences, 'contactCount')} = ${column(audiences, 'contactCount')} + (select count(*) from upserted where created)
        where ${column(audiences, 'id')} = ${audience} and exists (select 1 from upserted where created)
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
    await refusePastContactCap(tx, { organizationId: principal.organizationId, audienceId: audience.id, emails, now: deps.clock.now() });
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
