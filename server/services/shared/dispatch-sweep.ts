import type { ClaimTable } from './claims/lease';
import type { WorkerClaims } from './claims/worker';
import type { Dispatcher } from './dispatcher';

/** A sweep claims once this many slots are free (or none is busy): one claim round trip serves several rows. */
const CLAIM_WHEN_FREE = 8;
// A sweep stops claiming after this, so a cron-driven sweep ends in reasonable time; the runner
// runs a sweep that did work again at once. Rows still in flight then finish on their own.
const SWEEP_BUDGET_MS = 10_000;
/** While rows of this sweep are in flight (a slow receiver), how often it looks for newly due ones. */
const POLL_MS = 1_000;

/** What one sweep did: how many rows it handled, and how many ended in each outcome. */
export interface SweepReport<Outcome extends string> {
  handled: number;
  outcomes: Partial<Record<Outcome, number>>;
}

interface DispatchSweep<Row extends { id: string }, Result> {
  claims: WorkerClaims;
  table: ClaimTable;
  dispatcher: Dispatcher<Row, Result>;
  /** Claims up to `limit` due rows, none to a destination in `busy`. */
  claimDue(limit: number, busy: string[]): Promise<Row[]>;
  /** The outcome a result is counted under; null: nothing was done (the row was not due after all). */
  outcomeOf(result: Result): string | null;
}

/**
 * Runs due rows of one kind in the process's free slots, claiming more as slots free up, until
 * none is due and none of its own is in flight (or the budget is spent, or the process is
 * stopping). While a row of its own is held up by a slow receiver, it keeps looking for newly due
 * ones, so one slow destination never holds back the others. A failure stops the claiming; the
 * rows in flight finish, then it is thrown.
 */
export async function sweepWithDispatcher<Row extends { id: string }, Result, Outcome extends string>(sweep: DispatchSweep<Row, Result>): Promise<SweepReport<Outcome>> {
  const { claims, dispatcher: slots } = sweep;
  const started = performance.now();
  const report: SweepReport<Outcome> = { handled: 0, outcomes: {} };
  const mine = new Set<Promise<void>>();
  /** Rows this sweep claimed that wait for room. */
  const waiting = new Set<string>();
  let failure: { error: unknown } | null = null;
  const overBudget = () => performance.now() - started > SWEEP_BUDGET_MS;
  const track = (id: string) => (running: Promise<Result>) => {
    waiting.delete(id);
    const tracked: Promise<void> = running.then(
      (result) => {
        const outcome = sweep.outcomeOf(result) as Outcome | null;
        if (outcome === null) return;
        report.handled += 1;
        report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
      },
      (error: unknown) => void (failure ??= { error }),
    );
    mine.add(tracked);
    void tracked.finally(() => mine.delete(tracked));
  };
  const giveBack = (rows: Row[]) => {
    for (const row of rows) waiting.delete(row.id);
    return claims.release(
      sweep.table,
      rows.map((row) => row.id),
    );
  };

  // The last claim that found nothing but rows to busy destinations: claiming again while the same
  // ones are busy is pointless (a scan of everything due to them) until a poll interval has passed.
  let fruitless: { busy: string[]; at: number } | null = null;
  while (!claims.stopping && !failure && !overBudget()) {
    // Rows that waited too long for room at a slow destination go back to the database.
    await giveBack(slots.giveUp(false));
    const room = slots.room;
    const busy = slots.busy();
    const pointless = fruitless && performance.now() - fruitless.at < POLL_MS && fruitless.busy.every((destination) => busy.includes(destination));
    if ((room < CLAIM_WHEN_FREE || pointless) && slots.inFlight > 0) {
      await slots.somethingEnds(POLL_MS);
      continue;
    }
    if (room <= 0) {
      await slots.somethingEnds(POLL_MS);
      continue;
    }
    let rows: Row[];
    const kept = slots.promise(room);
    try {
      rows = await sweep.claimDue(room, busy);
    } catch (error) {
      failure = { error };
      break;
    } finally {
      kept();
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
  if (claims.stopping) await giveBack(slots.giveUp(true));
  // Ours finish before the report, unless held up past the budget: those go on by themselves.
  const left = SWEEP_BUDGET_MS - (performance.now() - started);
  if (mine.size > 0) await Promise.race([Promise.all(mine), new Promise((resolve) => setTimeout(resolve, Math.max(left, 0)).unref())]);
  if (failure) throw (failure as { error: unknown }).error;
  return report;
}
