import { sql, type SQL } from 'drizzle-orm';
import { perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { broadcasts, domains, emails, systemEmails, webhookDeliveries } from '@/db/schema';
import type { Deps } from '../../deps';

export interface DueWork {
  kind: string;
  /** Rows due now. */
  due: number;
  /** How long the oldest of them has been due, in seconds (0 with none). */
  oldestAgeSeconds: number;
}

// The sweeps' own conditions, each on its table's partial index of due times.
const KINDS: Array<{ kind: string; from: SQL; dueAt: SQL; where: SQL }> = [
  { kind: 'emails', from: tableName(emails), dueAt: sql`${emails.nextAttemptAt}`, where: sql`${emails.status} <> 'canceled'` },
  { kind: 'webhooks', from: tableName(webhookDeliveries), dueAt: sql`${webhookDeliveries.nextAttemptAt}`, where: sql`${webhookDeliveries.status} = 'pending'` },
  { kind: 'domain_checks', from: tableName(domains), dueAt: sql`${domains.nextCheckAt}`, where: sql`true` },
  { kind: 'broadcasts', from: tableName(broadcasts), dueAt: sql`${broadcasts.nextAttemptAt}`, where: sql`true` },
  { kind: 'system_emails', from: tableName(systemEmails), dueAt: sql`${systemEmails.nextAttemptAt}`, where: sql`${systemEmails.status} = 'pending'` },
];

const now = sql`${sql.placeholder('now')}::timestamptz`;
// Unnamed: planned on each run, so each part keeps to its partial index as the tables grow.
const dueWorkOn = perDatabase((db) =>
  prepareSql<{ kind: string; due: number; age: number }>(
    db,
    null,
    sql.join(
      KINDS.map(
        ({ kind, from, dueAt, where }) => sql`select ${sql.raw(`'${kind}'`)}::text as kind, count(*)::int as due,
          coalesce(extract(epoch from (${now} - min(${dueAt}))), 0)::float8 as age
          from ${from} where ${dueAt} is not null and ${dueAt} <= ${now} and ${where}`,
      ),
      sql` union all `,
    ),
  ),
);

/** The backlog of every kind of background work: what is due now and how late the oldest is. */
export async function readDueWork(deps: Pick<Deps, 'db' | 'clock'>): Promise<DueWork[]> {
  const rows = await dueWorkOn(deps.db).execute({ now: deps.clock.now().toISOString() });
  return rows.map((row) => ({ kind: row.kind, due: Number(row.due), oldestAgeSeconds: Math.max(0, Number(row.age)) }));
}
