import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { isDatabaseUnavailable } from '@/db/unavailable';
import type { Deps } from '../../../deps';
import { MINUTE_MS } from '../../shared/time';
import { claimDueEmails, claimEmail, releaseEmail } from './claim';
import { sweepWithDispatcher, type SweepReport } from '../../shared/dispatch-sweep';
import { deliverLive } from './live-delivery';
import { simulateTestEmail } from './test-mode';
import { NotSentError, type ClaimedEmail, type DispatchResult } from './types';

/** A step that failed for a reason of ours (not the database being away) is tried again this much later. */
const FAULT_RETRY_MS = 5 * MINUTE_MS;

const dispatchClaimed = (deps: Deps, row: ClaimedEmail): Promise<DispatchResult> => (row.mode === 'test' ? simulateTestEmail(deps, row) : deliverLive(deps, row));

/**
 * One claimed email's step. Its outcome clears the claim. A step that failed before anything left
 * the process is given back: due again at once while the database is away, later for a fault of
 * ours. A failure after the message went out is not given back (that would send it again at once):
 * the claim is left to lapse and the failure is thrown to be logged.
 */
export async function runClaimed(deps: Deps, row: ClaimedEmail): Promise<DispatchResult> {
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

const dispatcher = (deps: Deps) => deps.dispatchers.emails;

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

/**
 * Dispatches due emails in the process's free slots (services/shared/dispatch-sweep.ts): a slow
 * recipient domain holds its own share of the slots and no more.
 */
export function sweepEmailDispatch(deps: Deps): Promise<SweepReport<DispatchResult['outcome']>> {
  return sweepWithDispatcher({
    claims: deps.claims,
    table: emails,
    dispatcher: dispatcher(deps),
    claimDue: (limit, busy) => claimDueEmails(deps, limit, busy),
    outcomeOf: (result) => (result.outcome === 'skipped' ? null : result.outcome),
  });
}
