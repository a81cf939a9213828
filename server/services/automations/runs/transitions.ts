import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationRuns, automationRunSteps, type StoredStep } from '@/db/schema';
import type { RunEndReason, RunStepStatus } from '../../../vocabulary/automations';
import type { AppError } from '../../../errors';
import type { Deps } from '../../../deps';
import { logRunEvents } from './events';

// Every way a run's row changes, in one place: on to the next step, waiting, tried again later,
// ended (completed, failed, cancelled), with the step's history row written beside it.

export type RunRow = typeof automationRuns.$inferSelect;

/** A step's row in the run's history, keyed by the run and its step count (its idempotency key). */
export function stepRow(runId: string, seq: number, step: StoredStep, status: RunStepStatus, now: Date, detail: { output?: Record<string, unknown>; error?: AppError; startedAt?: Date } = {}) {
  return {
    runId,
    seq,
    key: step.key,
    type: step.type,
    status,
    output: detail.output ?? null,
    error: detail.error ? { code: detail.error.appCode, message: detail.error.message } : null,
    startedAt: detail.startedAt ?? now,
    completedAt: status === 'waiting' ? null : now,
  };
}

/** History rows in one statement; a row written again (a wait's end) takes the new status and keeps its output unless given one. */
export async function writeStepRows(tx: Db, rows: Array<ReturnType<typeof stepRow>>): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(automationRunSteps)
    .values(rows)
    .onConflictDoUpdate({
      target: [automationRunSteps.runId, automationRunSteps.seq],
      set: { status: sql`excluded.status`, output: sql`coalesce(excluded.output, ${automationRunSteps.output})`, error: sql`excluded.error`, completedAt: sql`excluded.completed_at` },
    });
}

/** One step's row in the run's history, at the run's step count. */
export async function recordStep(tx: Db, run: RunRow, step: StoredStep, status: RunStepStatus, now: Date, detail: { output?: Record<string, unknown>; error?: AppError; startedAt?: Date } = {}): Promise<void> {
  await writeStepRows(tx, [stepRow(run.id, run.stepCount, step, status, now, detail)]);
}

type EventDeps = Pick<Deps, 'clock' | 'jobs'>;

/** On to `next` (due now), or, with no step there, completed. */
export async function moveOn(tx: Db, deps: EventDeps, run: RunRow, next: string | null, now: Date, extra: Partial<RunRow> = {}): Promise<void> {
  const moved = next
    ? { stepKey: next, stepState: 'ready' as const, stepCount: run.stepCount + 1, dueAt: now, waitingFor: null, attempts: 0 }
    : { status: 'completed' as const, stepState: 'ready' as const, dueAt: null, waitingFor: null, completedAt: now };
  await tx
    .update(automationRuns)
    .set({ ...extra, ...moved, updatedAt: now })
    .where(eq(automationRuns.id, run.id));
  if (!next) await logRunEvents(tx, deps, 'completed', [{ ...run, ...extra }]);
}

/** Waits at its step until `until` (a delay's end, a wait's timeout), or until the event it waits for comes. */
export async function waitAt(tx: Db, run: RunRow, until: Date, waitingFor: string | null, now: Date): Promise<void> {
  await tx.update(automationRuns).set({ stepState: 'waiting', dueAt: until, waitingFor, receivedEvent: null, updatedAt: now }).where(eq(automationRuns.id, run.id));
}

/** Refused for a while (a sending limit): the step is tried again at `at`, the refusal kept as the run's error meanwhile. */
export async function tryAgainAt(tx: Db, run: RunRow, at: Date, error: AppError, now: Date): Promise<void> {
  await tx.update(automationRuns).set({ dueAt: at, attempts: run.attempts + 1, error: error.message, updatedAt: now }).where(eq(automationRuns.id, run.id));
}

/** Ended: failed with the step's error, or cancelled for a reason (stopped, the contact gone, unsubscribed, suppressed). */
export async function endRun(tx: Db, deps: EventDeps, run: RunRow, ending: { failed: AppError } | { cancelled: RunEndReason }, now: Date): Promise<void> {
  const set = 'failed' in ending ? { status: 'failed' as const, error: ending.failed.message } : { status: 'cancelled' as const, endedReason: ending.cancelled };
  await tx
    .update(automationRuns)
    .set({ ...set, dueAt: null, waitingFor: null, completedAt: now, updatedAt: now })
    .where(eq(automationRuns.id, run.id));
  await logRunEvents(tx, deps, set.status, [run], 'failed' in ending ? { error: ending.failed.message } : { reason: ending.cancelled });
}
