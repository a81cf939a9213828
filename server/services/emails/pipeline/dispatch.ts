import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { isDatabaseUnavailable } from '@/db/unavailable';
import type { Deps } from '../../../deps';
import { MINUTE_MS } from '../../shared/time';
import { claimDueEmails, claimEmail, releaseEmail } from './claim';
import { dispatcherOf } from './dispatcher';
import { deliverLive } from './live-delivery';
import { simulateTestEmail } from './test-mode';
import { NotSentError, type ClaimedEmail, type DispatchResult } from './types';

/** A sweep claims once this many slots are free (or none is busy): one claim round trip serves several emails. */
const CLAIM_WHEN_FREE = 8;
// A sweep stops claiming after this, so a cron-driven sweep ends in reasonable time; the runner
// runs a sweep that did work again at once. Emails still in flight then finish on their own.
const SWEEP_BUDGET_MS = 10_000;
/** While emails of this sweep are in flight (a slow server), how often it looks for newly due ones. */
const POLL_MS = 1_000;
/** A step that failed for a reason of ours (not the database being away) is tried again this much later. */
const FAULT_RETRY_MS = 5 * MINUTE_MS;

const dispatchClaimed = (deps: Deps, row: ClaimedEmail): Promise<DispatchResult> => (row.mode === 'test' ? simulateTestEmail(deps, row) : deliverLive(deps, row));

/**
 * One claimed email's step. Its outcome clears the claim. A step that failed before anything left
 * the process is given back: due again at once while the database is away, later for a fault of
 * ours. A failure after the message went out is not given back (that would send it again at once):
 * the claim is left to lapse and the failure is thrown to be logged.
 */
async function runClaimed(deps: Deps, row: ClaimedEmail): Promise<DispatchResult> {
  try {
    const result = await dispatchClaimed(deps, row);
    deps.claims.finished(emails, [row.id]);
    return result;
  } catch (error) {
    if (error instanceof NotSentError || row.mode === 'test') {
      const retryAt = isDatabaseUnavailable(error) ? undefined : new Date(deps.clock.now().getTime() + FAULT_RETRY_MS);
      await releaseEmail(deps, row.id, retryAt).catch((releaseError: unknown) => deps.claims.noteFailure(releaseError));
    } else {
      deps.claims.finished(emails, [row.id]);
    }
    throw error;
  }
}

const dispatcher = (deps: Deps) => dispatcherOf(deps, runClaimed);

/** Emails this process is dispatching now, all sweeps together. */
export const dispatchesInFlight = (deps: Deps): number => dispatcher(deps).inFlight;

export async function dispatchEmail(deps: Deps, id: string): Promise<DispatchResult> {
  const row = await claimEmail(deps, id);
  if (!row) return { outcome: 'skipped', nextAttemptAt: null };
  const running = dispatcher(deps).startNow(row);
  if (running) return running;
  // No slot, or its destination is full here: the sweeps send it once there is room.
  await releaseEmail(deps, row.id);
  return { outcome: 'skipped', nextAttemptAt: null };
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

/** What one sweep did: how many emails it handled, and the status each was left in. */
interface DispatchSweepReport {
  handled: number;
  outcomes: Partial<Record<DispatchResult['outcome'], number>>;
}

/**
 * Dispatches due emails in the process's free slots, claiming more as slots free up, until none
 * is due and none of its own is in flight (or the budget is spent, or the process is stopping).
 * While an email of its own is held up by a slow server, it keeps looking for newly due ones, so
 * one slow destination never holds back the others. A failure stops the claiming; the emails in
 * flight finish, then it is thrown.
 */
export async function sweepEmailDispatch(deps: Deps): Promise<DispatchSweepReport> {
  const slots = dispatcher(deps);
  const started = performance.now();
  const report: DispatchSweepReport = { handled: 0, outcomes: {} };
  const mine = new Set<Promise<void>>();
  /** Emails this sweep claimed that wait for room. */
  const waiting = new Set<string>();
  let failure: { error: unknown } | null = null;
  const overBudget = () => performance.now() - started > SWEEP_BUDGET_MS;
  const track = (id: string) => (running: Promise<DispatchResult>) => {
    waiting.delete(id);
    const tracked: Promise<void> = running.then(
      ({ outcome }) => {
        if (outcome === 'skipped') return;
        report.handled += 1;
        report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
      },
      (error: unknown) => void (failure ??= { error }),
    );
    mine.add(tracked);
    void tracked.finally(() => mine.delete(tracked));
  };
  const giveBack = (rows: ClaimedEmail[]) => {
    for (const row of rows) waiting.delete(row.id);
    return deps.claims.release(
      emails,
      rows.map((row) => row.id),
    );
  };

  // The last claim that found nothing but emails to busy destinations: claiming again while the same
  // ones are busy is pointless (a scan of everything due to them) until a poll interval has passed.
  let fruitless: { busy: string[]; at: number } | null = null;
  while (!deps.claims.stopping && !failure && !overBudget()) {
    // Emails that waited too long for room at a slow destination go back to the database.
    await giveBack(slots.giveUp(false));
    const room = slots.room;
    const busy = slots.busy();
    const pointless = fruitless && performance.now() - fruitless.at < POLL_MS && fruitless.busy.every((domain) => busy.includes(domain));
    if ((room < CLAIM_WHEN_FREE || pointless) && slots.inFlight > 0) {
      await slots.somethingEnds(POLL_MS);
      continue;
    }
    let rows: ClaimedEmail[];
    try {
      rows = await claimDueEmails(deps, room, busy);
    } catch (error) {
      failure = { error };
      break;
    }
    if (rows.length === 0 && busy.length > 0) fruitless = { busy, at: performance.now() };
    for (const row of rows) {
      waiting.add(row.id);
      slots.take(row, track(row.id));
    }
    if (rows.length === 0) {
      if (mine.size === 0 && waiting.size === 0) break;
      await slots.somethingEnds(POLL_MS);
    }
  }
  if (deps.claims.stopping) await giveBack(slots.giveUp(true));
  // Ours finish before the report, unless held up past the budget: those go on by themselves.
  const left = SWEEP_BUDGET_MS - (performance.now() - started);
  if (mine.size > 0) await Promise.race([Promise.all(mine), new Promise((resolve) => setTimeout(resolve, Math.max(left, 0)).unref())]);
  if (failure) throw (failure as { error: unknown }).error;
  return report;
}
