import { getTableColumns, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { domains, organizations, suppressions, usageCounters } from '@/db/schema';
import type { SendingAccount, UsageCounters } from '../../plans/sending-limits';
import { NO_USAGE } from '../../plans/sending-limits';
import { groupCommitter } from '../../shared/group-commit';
import { suppressionHash } from '../../suppressions/address-hash';

interface SenderDomain {
  id: string;
  name: string;
  status: string;
  openTracking: boolean;
  clickTracking: boolean;
}

/** What the refusals before queueing read from the database, for one email or a whole batch. */
export interface SendContext {
  organization: { status: string; ownerEmail: string; ownerConfirmed: boolean; deletionPending: boolean; unpaid: boolean } | null;
  /** What the sending limits read: plan, standing, review and overage, and the live counters. */
  account: SendingAccount | null;
  counters: UsageCounters;
  /** The organization's domains among the senders', by name. */
  domains: Map<string, SenderDomain>;
  /** The recipients (normalised) that are on the organization's suppression list. */
  suppressed: Set<string>;
}

type ContextRow = Record<string, unknown> & {
  status: string;
  owner_email: string;
  owner_confirmed: boolean;
  deletion_pending: boolean;
  unpaid: boolean;
  domains: SenderDomain[] | string;
  suppressed: string[] | string;
  has_erased: boolean;
};

const ACCOUNT_COLUMNS = ['plan', 'pendingPlan', 'pendingPlanAt', 'reviewed', 'overageEnabled', 'createdAt', 'paidSince', 'poolExitedAt', 'standingEvaluatedAt', 'busiestRecentDay', 'elevatedReason'] as const;
const COUNTER_COLUMNS = ['day', 'dayRecipients', 'month', 'monthRecipients', 'listRecipients', 'overageNotifiedMonth'] as const;

/** `alias.column as "prefix.key", ...`: plain columns under their TypeScript keys, read back by {@link fromColumns}. */
function columnsAs<T extends PgTable>(alias: string, table: T, keys: ReadonlyArray<keyof T['_']['columns'] & string>): SQL {
  return sql.join(
    keys.map((key) => sql`${column(table, key, alias)} as ${sql.identifier(`${alias}.${key}`)}`),
    sql.raw(', '),
  );
}

const mappers = new WeakMap<PgTable, Record<string, Column>>();

/** The columns named by {@link columnsAs}, each mapped as drizzle maps it (a timestamp becomes a Date). */
function fromColumns<T>(row: Record<string, unknown>, alias: string, table: PgTable, keys: readonly string[]): T {
  let columns = mappers.get(table);
  if (!columns) mappers.set(table, (columns = getTableColumns(table) as Record<string, Column>));
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    const value = row[`${alias}.${key}`];
    result[key] = value === null || value === undefined ? null : columns[key]!.mapFromDriverValue(value);
  }
  return result as T;
}

// Organization, account, counters, sender domains and suppressed recipients in one prepared round
// trip: sending is the hottest write path, and separate queries cost more than the insert itself.
// The reads of every send in flight go together (readTogether): one row per request, by its
// ordinal. A recipient is suppressed by its address, or by its hash when the address was erased
// (suppressions/address-hash.ts): two sub-selects, each probing its own unique index. Whether the
// organization holds any erased entry at all comes back too: most hold none, and then no address
// is hashed (an HMAC per recipient was 4 % of a batch's server CPU).
const readContexts = perDatabase((db) =>
  prepareSql<ContextRow & { ordinal: number }>(
    db,
    'send_contexts',
    sql`with input as (
        select * from jsonb_to_recordset(${sql.placeholder('requests')}::jsonb) as i(ordinal int, organization_id uuid, names text[], addresses text[], hashes text[])
      )
      select i.ordinal, ${column(organizations, 'status', 'o')}, ${column(organizations, 'ownerEmail', 'o')} as owner_email,
        ${column(organizations, 'ownerConfirmedAt', 'o')} is not null as owner_confirmed,
        ${column(organizations, 'deletionRequestedAt', 'o')} is not null as deletion_pending,
        coalesce(${column(organizations, 'statusCause', 'o')} = 'non_payment', false) as unpaid,
        ${columnsAs('o', organizations, ACCOUNT_COLUMNS)},
        ${columnsAs('c', usageCounters, COUNTER_COLUMNS)},
        coalesce((select jsonb_agg(jsonb_build_object('id', ${column(domains, 'id', 'd')}, 'name', ${column(domains, 'name', 'd')}, 'status', ${column(domains, 'status', 'd')},
            'openTracking', ${column(domains, 'openTracking', 'd')}, 'clickTracking', ${column(domains, 'clickTracking', 'd')}))
          from ${tableName(domains, 'd')}
          where ${column(domains, 'organizationId', 'd')} = ${column(organizations, 'id', 'o')} and ${column(domains, 'name', 'd')} = any(i.names)), '[]'::jsonb) as domains,
        coalesce((select jsonb_agg(${column(suppressions, 'email', 's')})
          from ${tableName(suppressions, 's')}
          where ${column(suppressions, 'organizationId', 's')} = ${column(organizations, 'id', 'o')} and ${column(suppressions, 'email', 's')} = any(i.addresses)), '[]'::jsonb)
        || coalesce((select jsonb_agg(${column(suppressions, 'emailHash', 'h')})
          from ${tableName(suppressions, 'h')}
          where ${column(suppressions, 'organizationId', 'h')} = ${column(organizations, 'id', 'o')} and ${column(suppressions, 'emailHash', 'h')} is not null
            and ${column(suppressions, 'emailHash', 'h')} = any(i.hashes)), '[]'::jsonb) as suppressed,
        exists (select 1 from ${tableName(suppressions, 'e')}
          where ${column(suppressions, 'organizationId', 'e')} = ${column(organizations, 'id', 'o')} and ${column(suppressions, 'emailHash', 'e')} is not null) as has_erased
      from input i
        join ${tableName(organizations, 'o')} on ${column(organizations, 'id', 'o')} = i.organization_id
        left join ${tableName(usageCounters, 'c')} on ${column(usageCounters, 'organizationId', 'c')} = ${column(organizations, 'id', 'o')}`,
  ),
);

interface ContextRequest {
  organizationId: string;
  names: string[];
  addresses: string[];
  hashes: string[];
}

// A read, so no limit on how many of one organization go together: many sends arriving at once
// pay one round trip between them instead of one each.
const readTogether = groupCommitter(async (db: Db, requests: ContextRequest[]): Promise<Array<ContextRow | null>> => {
  const rows = await readContexts(db).execute({
    requests: JSON.stringify(
      requests.map((request, index) => ({ ordinal: index, organization_id: request.organizationId, names: request.names, addresses: request.addresses, hashes: request.hashes })),
    ),
  });
  const byOrdinal = new Map(rows.map((row) => [row.ordinal, row]));
  return requests.map((_, index) => byOrdinal.get(index) ?? null);
});

/**
 * Reads the context; `addresses` must already be normalised (lowercase, ASCII domain). `encryptionKey`
 * keys the hashes an erased address's suppression is found by.
 */
export async function loadSendContext(
  source: { db: Db; encryptionKey: Buffer },
  organizationId: string,
  domainNames: string[],
  addresses: string[],
): Promise<SendContext> {
  const unique = [...new Set(addresses)];
  const names = [...new Set(domainNames)];
  let byHash = new Map<string, string>();
  let row = await readTogether(source.db, { organizationId, names, addresses: unique, hashes: [] });
  if (row?.has_erased && unique.length > 0) {
    // Read again with the hashes: an erased address must stay suppressed (docs/privacy.md).
    byHash = new Map(unique.map((address) => [suppressionHash(source.encryptionKey, organizationId, address), address]));
    row = await readTogether(source.db, { organizationId, names, addresses: unique, hashes: [...byHash.keys()] });
  }
  if (!row) return { organization: null, account: null, counters: NO_USAGE, domains: new Map(), suppressed: new Set() };
  const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  return {
    organization: { status: row.status, ownerEmail: row.owner_email, ownerConfirmed: row.owner_confirmed, deletionPending: row.deletion_pending, unpaid: row.unpaid },
    account: fromColumns<SendingAccount>(row, 'o', organizations, ACCOUNT_COLUMNS),
    // day is never null in a stored counter row: null means the organization has none yet.
    counters: row['c.day'] == null ? NO_USAGE : fromColumns<UsageCounters>(row, 'c', usageCounters, COUNTER_COLUMNS),
    domains: new Map(parse(row.domains).map((domain) => [domain.name, domain])),
    suppressed: new Set(parse(row.suppressed).map((found) => byHash.get(found) ?? found)),
  };
}
