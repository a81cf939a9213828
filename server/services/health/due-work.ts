import { sql, type SQL } from 'drizzle-orm';
import { perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { broadcasts, contactImports, domains, emails, organizations, systemEmails, webhookDeliveries } from '@/db/schema';
import type { Deps } from '../../deps';
import { paymentGraceIsDue } from '../billing/payment-standing';
import { broadcastIsDue } from '../broadcasts/fan-out';
import { contactImportIsDue } from '../contact-imports/run';
import { domainCheckIsDue } from '../domains/verification';
import { emailIsDue } from '../emails/pipeline/claim';
import { planChangeIsDue } from '../plans/changes';
import { systemEmailIsDue } from '../system-mail/queue';
import { deliveryIsDue } from '../webhooks/claim';

export interface DueWork {
  kind: string;
  /** Rows due now. */
  due: number;
  /** How long the oldest of them has been due, in seconds (0 with none). */
  oldestAgeSeconds: number;
}

// Each sweep's own condition, from the module that claims the rows (whoever holds them: work
// under way is still backlog), each on its table's index of due times.
const KINDS: Array<{ kind: string; from: SQL; dueAt: SQL; isDue: (now: SQL) => SQL }> = [
  { kind: 'emails', from: tableName(emails), dueAt: sql`${emails.nextAttemptAt}`, isDue: emailIsDue },
  { kind: 'webhooks', from: tableName(webhookDeliveries), dueAt: sql`${webhookDeliveries.nextAttemptAt}`, isDue: deliveryIsDue },
  { kind: 'domain_checks', from: tableName(domains), dueAt: sql`${domains.nextCheckAt}`, isDue: domainCheckIsDue },
  { kind: 'broadcasts', from: tableName(broadcasts), dueAt: sql`${broadcasts.nextAttemptAt}`, isDue: broadcastIsDue },
  { kind: 'system_emails', from: tableName(systemEmails), dueAt: sql`${systemEmails.nextAttemptAt}`, isDue: systemEmailIsDue },
  { kind: 'plan_changes', from: tableName(organizations), dueAt: sql`${organizations.pendingPlanAt}`, isDue: planChangeIsDue },
  { kind: 'payment_grace', from: tableName(organizations), dueAt: sql`${organizations.paymentGraceUntil}`, isDue: paymentGraceIsDue },
  { kind: 'contact_imports', from: tableName(contactImports), dueAt: sql`${contactImports.createdAt}`, isDue: contactImportIsDue },
];

const now = sql`${sql.placeholder('now')}::timestamptz`;
// Unnamed: planned on each run, so each part keeps to its partial index as the tables grow.
const dueWorkOn = perDatabase((db) =>
  prepareSql<{ kind: string; due: number; age: number }>(
    db,
    null,
    sql.join(
      KINDS.map(
        ({ kind, from, dueAt, isDue }) => sql`select ${sql.raw(`'${kind}'`)}::text as kind, count(*)::int as due,
          coalesce(extract(epoch from (${now} - min(${dueAt}))), 0)::float8 as age
          from ${from} where ${isDue(now)}`,
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
