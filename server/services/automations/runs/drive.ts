import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { automationRuns } from '@/db/schema';
import type { Deps } from '../../../deps';
import { claimable, claimedBy } from '../../shared/claims/lease';
import { inLanes } from '../../shared/lanes';
import { takeStep } from './step';
import { takeStepsTogether } from './together';

/** Steps one run takes in a turn before handing back (a run only loops through a delay, so this is a bound, not a brake). */
export const RUN_TURN_STEPS = 50;
/** Runs a sweep claims at once (their triggers and delays taken together), and how long it works before it hands back to the runner. */
const SWEEP_CLAIM = 200;
const SWEEP_BUDGET_MS = 5_000;
/** Runs a sweep takes steps of at once. */
const RUNS_AT_ONCE = 8;

/** What one turn of a run left: when it is due again (a delay, a wait, a retry), or null (ended, or another worker has it). */
export interface RunTurn {
  outcome: 'waiting' | 'stopped' | 'skipped';
  nextDueAt: string | null;
}

const due = (deps: Deps, now: Date) => and(eq(automationRuns.status, 'running'), lte(automationRuns.dueAt, now), claimable(automationRuns, deps.claims.claimant));

/** Claims due runs for this worker through the one claim-and-lease mechanism, the longest due first. */
async function claim(deps: Deps, where: { id: string } | { limit: number }): Promise<string[]> {
  const now = deps.clock.now();
  const chosen =
    'id' in where
      ? and(eq(automationRuns.id, where.id), due(deps, now))
      : inArray(
          automationRuns.id,
          deps.db.select({ id: automationRuns.id }).from(automationRuns).where(due(deps, now)).orderBy(asc(automationRuns.dueAt)).limit(where.limit).for('update', { skipLocked: true }),
        );
  const rows = await deps.db.update(automationRuns).set(claimedBy(deps.claims.claimant)).where(chosen).returning({ id: automationRuns.id });
  const ids = rows.map((row) => row.id);
  deps.claims.hold(automationRuns, ids);
  return ids;
}

/** A claimed run, step after step until it waits or ends, then handed back. */
async function drive(deps: Deps, id: string): Promise<RunTurn> {
  try {
    for (let steps = 0; steps < RUN_TURN_STEPS && !deps.claims.stopping; steps += 1) {
      const taken = await takeStep(deps, id);
      if (taken.went === 'wait') return { outcome: 'waiting', nextDueAt: taken.until.toISOString() };
      if (taken.went === 'stop') return { outcome: 'stopped', nextDueAt: null };
    }
    // Handed back due now: the next sweep (or the per-run function's next step) goes on.
    return { outcome: 'waiting', nextDueAt: deps.clock.now().toISOString() };
  } finally {
    await deps.claims.release(automationRuns, [id]);
  }
}

/** One run, if it is due and nobody else holds it (a wake-up, an Inngest step). */
export async function runAutomationRun(deps: Deps, id: string): Promise<RunTurn> {
  const [claimed] = await claim(deps, { id });
  return claimed ? drive(deps, claimed) : { outcome: 'skipped', nextDueAt: null };
}

export interface RunSweepReport {
  handled: number;
  outcomes: Partial<Record<RunTurn['outcome'], number>>;
  /** Whether it stopped at its budget with runs still claimed or due: the runner goes again at once. */
  more: boolean;
}

/** The embedded runner's sweep: due runs, claimed fifty at a time, each driven until it waits or ends, for up to five seconds. */
export async function sweepAutomationRuns(deps: Deps): Promise<RunSweepReport> {
  const report: RunSweepReport = { handled: 0, outcomes: {}, more: false };
  const started = performance.now();
  while (!deps.claims.stopping && performance.now() - started < SWEEP_BUDGET_MS) {
    const claimed = await claim(deps, { limit: SWEEP_CLAIM });
    // The crowd's common steps first, in one transaction; what is left ready (an email, a branch, a contact change) goes one run at a time.
    const together = await takeStepsTogether(deps, claimed).catch(async (error: unknown) => {
      await deps.claims.release(automationRuns, claimed);
      throw error;
    });
    const ids = claimed.filter((id) => together.get(id)!.went === 'ready');
    const handedBack = claimed.filter((id) => together.get(id)!.went !== 'ready');
    for (const id of handedBack) {
      const turn = together.get(id)!;
      report.handled += 1;
      const outcome = turn.went === 'wait' ? 'waiting' : 'stopped';
      report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
    }
    await deps.claims.release(automationRuns, handedBack);
    let started = 0;
    try {
      await inLanes(
        ids,
        RUNS_AT_ONCE,
        async (id) => {
          started += 1;
          const turn = await drive(deps, id);
          report.handled += 1;
          report.outcomes[turn.outcome] = (report.outcomes[turn.outcome] ?? 0) + 1;
        },
        () => deps.claims.stopping,
      );
    } finally {
      // Runs no lane started are given back at once, not left to their lease.
      await deps.claims.release(automationRuns, ids.slice(started));
    }
    if (claimed.length < SWEEP_CLAIM) return report;
  }
  report.more = true;
  return report;
}

/** When a run is next due, for the per-run Inngest function's first sleep. */
export async function runDueAt(deps: Pick<Deps, 'db'>, id: string): Promise<string | null> {
  const [row] = await deps.db.select({ dueAt: automationRuns.dueAt, status: automationRuns.status }).from(automationRuns).where(eq(automationRuns.id, id));
  return row?.status === 'running' && row.dueAt ? row.dueAt.toISOString() : null;
}
