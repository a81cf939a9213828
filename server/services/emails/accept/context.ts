import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { domains, organizations, suppressions, usageCounters } from '@/db/schema';
import type { SendingAccount, UsageCounters } from '../../plans/sending-limits';
import { NO_USAGE } from '../../plans/sending-limits';

interface SenderDomain {
  id: string;
  name: string;
  status: string;
  openTracking: boolean;
  clickTracking: boolean;
}

/** What the refusals before queueing read from the database, for one email or a whole batch. */
export interface SendContext {
  organization: { status: string; ownerEmail: string } | null;
  /** What the sending limits read: plan, standing, review and overage, and the live counters. */
  account: SendingAccount | null;
  counters: UsageCounters;
  /** The organization's domains among the senders', by name. */
  domains: Map<string, SenderDomain>;
  /** The recipients (normalised) that are on the organization's suppression list. */
  suppressed: Set<string>;
}

interface ContextRow {
  status: string;
  owner_email: string;
  account: Record<keyof SendingAccount, unknown>;
  counters: Record<keyof UsageCounters, unknown> | null;
  domains: SenderDomain[];
  suppressed: string[];
}

const ACCOUNT_COLUMNS = ['plan', 'pendingPlan', 'pendingPlanAt', 'reviewed', 'overageEnabled', 'createdAt', 'paidSince', 'poolExitedAt', 'standingEvaluatedAt', 'busiestRecentDay', 'elevatedReason'] as const;
const COUNTER_COLUMNS = ['day', 'dayRecipients', 'month', 'monthRecipients', 'listRecipients', 'overageNotifiedMonth'] as const;

/** `jsonb_build_object('key', alias.column, ...)`: columns under their TypeScript keys, read back by {@link fromJson}. */
function jsonOf<T extends PgTable>(alias: string, table: T, keys: ReadonlyArray<keyof T['_']['columns'] & string>): SQL {
  return sql`jsonb_build_object(${sql.join(
    keys.map((key) => sql`${key}::text, ${column(table, key, alias)}`),
    sql.raw(', '),
  )})`;
}

const TIMES = new Set(['pendingPlanAt', 'createdAt', 'paidSince', 'poolExitedAt', 'standingEvaluatedAt']);
function fromJson<T>(value: unknown): T {
  const record = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, TIMES.has(key) && typeof item === 'string' ? new Date(item) : item])) as T;
}

// Organization, sender domains and suppressed recipients in one prepared round trip: sending is
// the hottest write path, and three unnamed queries cost more than the insert itself.
const readContext = perDatabase((db) =>
  prepareSql<ContextRow>(
    db,
    'send_context',
    sql`select ${column(organizations, 'status', 'o')}, ${column(organizations, 'ownerEmail', 'o')} as owner_email,
        ${jsonOf('o', organizations, ACCOUNT_COLUMNS)} as account,
        (select ${jsonOf('c', usageCounters, COUNTER_COLUMNS)} from ${tableName(usageCounters, 'c')}
          where ${column(usageCounters, 'organizationId', 'c')} = ${column(organizations, 'id', 'o')}) as counters,
        coalesce((select jsonb_agg(jsonb_build_object('id', ${column(domains, 'id', 'd')}, 'name', ${column(domains, 'name', 'd')}, 'status', ${column(domains, 'status', 'd')},
            'openTracking', ${column(domains, 'openTracking', 'd')}, 'clickTracking', ${column(domains, 'clickTracking', 'd')}))
          from ${tableName(domains, 'd')}
          where ${column(domains, 'organizationId', 'd')} = ${column(organizations, 'id', 'o')}
            and ${column(domains, 'name', 'd')} in (select jsonb_array_elements_text(${sql.placeholder('names')}::jsonb))), '[]'::jsonb) as domains,
        coalesce((select jsonb_agg(${column(suppressions, 'email', 's')})
          from ${tableName(suppressions, 's')}
          where ${column(suppressions, 'organizationId', 's')} = ${column(organizations, 'id', 'o')}
            and ${column(suppressions, 'email', 's')} in (select jsonb_array_elements_text(${sql.placeholder('addresses')}::jsonb))), '[]'::jsonb) as suppressed
      from ${tableName(organizations, 'o')} where ${column(organizations, 'id', 'o')} = ${sql.placeholder('organizationId')}`,
  ),
);

/** Reads the context; `addresses` must already be normalised (lowercase, ASCII domain). */
export async function loadSendContext(db: Db, organizationId: string, domainNames: string[], addresses: string[]): Promise<SendContext> {
  const [row] = await readContext(db).execute({
    organizationId,
    names: JSON.stringify([...new Set(domainNames)]),
    addresses: JSON.stringify([...new Set(addresses)]),
  });
  if (!row) return { organization: null, account: null, counters: NO_USAGE, domains: new Map(), suppressed: new Set() };
  const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  return {
    organization: { status: row.status, ownerEmail: row.owner_email },
    account: fromJson<SendingAccount>(row.account),
    counters: row.counters ? fromJson<UsageCounters>(row.counters) : NO_USAGE,
    domains: new Map(parse(row.domains).map((domain) => [domain.name, domain])),
    suppressed: new Set(parse(row.suppressed)),
  };
}
