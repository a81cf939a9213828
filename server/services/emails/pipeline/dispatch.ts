import { and, asc, eq, getTableColumns, getTableName, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, tableName } from '@/db/raw-sql';
import { dkimKeys, emailAttachments, emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { MINUTE_MS } from '../../shared/time';
import { deliverLive } from './live-delivery';
import { simulateTestEmail } from './test-mode';
import type { ClaimedEmail, DispatchResult } from './types';

/** A claimed email whose worker died is due again after this. */
const DISPATCH_LEASE_MS = 10 * MINUTE_MS;
/** Emails a sweep has in flight at once: enough to keep the relay's or an MX's connections busy. */
const DISPATCH_CONCURRENCY = 16;
// A sweep claims a few emails ahead of its free slots, never many: a claimed email waits for its
// lease to run out if this process dies.
const CLAIM_BATCH = 2 * DISPATCH_CONCURRENCY;
// A sweep stops claiming after this, so a cron-driven sweep ends in reasonable time; the runner
// runs a sweep that did work again at once.
const SWEEP_BUDGET_MS = 10_000;

const due = (now: unknown) => and(isNotNull(emails.nextAttemptAt), lte(emails.nextAttemptAt, sql`${now}::timestamptz`), ne(emails.status, 'canceled'));

// The claim also reads what sending needs besides the row: the domain's active DKIM key (so a
// rotated or deleted key is seen at once) and whether there are attachments to load.
// Qualified by hand: drizzle writes the columns of an UPDATE's RETURNING unqualified, which inside
// these sub-selects would name the sub-select's own table.
const outer = (key: 'id' | 'domainId') => column(emails, key, getTableName(emails));
const claimed = {
  ...getTableColumns(emails),
  signingKeyId: sql<string | null>`(select ${column(dkimKeys, 'id', 'k')} from ${tableName(dkimKeys, 'k')}
    where ${column(dkimKeys, 'domainId', 'k')} = ${outer('domainId')} and ${column(dkimKeys, 'retiredAt', 'k')} is null
      and ${column(dkimKeys, 'privateKeyEncrypted', 'k')} is not null order by ${column(dkimKeys, 'id', 'k')} desc limit 1)`,
  hasAttachments: sql<boolean>`exists (select 1 from ${tableName(emailAttachments, 'a')} where ${column(emailAttachments, 'emailId', 'a')} = ${outer('id')})`,
};

const claimSet = (db: Db) =>
  db.update(emails).set({
    nextAttemptAt: sql`${sql.placeholder('lease')}::timestamptz`,
    status: sql`case when ${emails.status} in ('queued', 'scheduled') then 'sending' else ${emails.status} end`,
    updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
  });

/**
 * Claims by one atomic update, so an email is handled once even when the runner, an Inngest
 * function and another process reach it together, and so a cancel or reschedule either wins
 * before the claim (nothing is sent) or finds the email no longer scheduled (409).
 */
const claimOne = perDatabase((db) =>
  claimSet(db)
    .where(and(eq(emails.id, sql.placeholder('id')), due(sql.placeholder('now'))))
    .returning(claimed)
    .prepare('claim_email'),
);

// Oldest due first; SKIP LOCKED lets sweeps in several workers take disjoint batches instead of
// queueing behind each other's locks.
const claimDue = perDatabase((db) =>
  claimSet(db)
    .where(
      inArray(
        emails.id,
        db
          .select({ id: emails.id })
          .from(emails)
          .where(due(sql.placeholder('now')))
          .orderBy(asc(emails.nextAttemptAt))
          .limit(sql.placeholder('limit'))
          .for('update', { skipLocked: true }),
      ),
    )
    .returning(claimed)
    .prepare('claim_due_emails'),
);

const leaseOf = (deps: Pick<Deps, 'clock'>) => {
  const now = deps.clock.now();
  return { now: now.toISOString(), lease: new Date(now.getTime() + DISPATCH_LEASE_MS).toISOString() };
};

const dispatchClaimed = (deps: Deps, row: ClaimedEmail): Promise<DispatchResult> => (row.mode === 'test' ? simulateTestEmail(deps, row) : deliverLive(deps, row));

export async function dispatchEmail(deps: Deps, id: string): Promise<DispatchResult> {
  const [row] = await claimOne(deps.db).execute({ id, ...leaseOf(deps) });
  if (!row) return { outcome: 'skipped', nextAttemptAt: null };
  return dispatchClaimed(deps, row);
}

/** When the email is next due, if that is still ahead: what a durable function sleeps until. */
export async function nextAttemptAtOf(deps: Pick<Deps, 'db' | 'clock'>, id: string): Promise<string | null> {
  const [row] = await deps.db.select({ at: emails.nextAttemptAt }).from(emails).where(eq(emails.id, id));
  return row?.at && row.at > deps.clock.now() ? row.at.toISOString() : null;
}

/** Due emails (queued, scheduled whose time came, retries, test-mode steps), oldest due first. */
export async function dueEmailIds(deps: Pick<Deps, 'db' | 'clock'>, limit = 100): Promise<string[]> {
  const rows = await deps.db
    .select({ id: emails.id })
    .from(emails)
    .where(and(isNotNull(emails.nextAttemptAt), lte(emails.nextAttemptAt, deps.clock.now())))
    .orderBy(asc(emails.nextAttemptAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Dispatches due emails, DISPATCH_CONCURRENCY at a time, claiming more as slots free up, until
 * none is due (or the budget is spent). Answers how many it handled and how each ended. A failure
 * stops the claiming; the emails in flight finish, then it is thrown.
 */
/** What one sweep did: how many emails it handled, and the status each was left in. */
interface DispatchSweepReport {
  handled: number;
  outcomes: Partial<Record<DispatchResult['outcome'], number>>;
}

export async function sweepEmailDispatch(deps: Deps): Promise<DispatchSweepReport> {
  const started = performance.now();
  const ready: ClaimedEmail[] = [];
  let claiming: Promise<void> | null = null;
  let exhausted = false;
  let failure: { error: unknown } | null = null;
  let handled = 0;
  const outcomes: DispatchSweepReport['outcomes'] = {};

  const claimMore = async () => {
    const rows = await claimDue(deps.db).execute({ limit: CLAIM_BATCH, ...leaseOf(deps) });
    ready.push(...rows);
    if (rows.length === 0 || performance.now() - started > SWEEP_BUDGET_MS) exhausted = true;
  };
  const next = async (): Promise<ClaimedEmail | undefined> => {
    while (ready.length === 0 && !exhausted && !failure) {
      claiming ??= claimMore()
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => (claiming = null));
      await claiming;
    }
    // Emails already claimed are still sent after a failure: left alone they would wait out their lease.
    return ready.shift();
  };
  const lane = async () => {
    for (let row = await next(); row; row = await next()) {
      try {
        const { outcome } = await dispatchClaimed(deps, row);
        if (outcome !== 'skipped') {
          handled += 1;
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        }
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: DISPATCH_CONCURRENCY }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return { handled, outcomes };
}
