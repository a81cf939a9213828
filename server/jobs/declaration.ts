import type { Deps } from '../deps';
import type { JobKind } from './jobs';

/**
 * One kind of background work, declared once: the embedded runner (server/runner) polls its
 * sweep, and the Inngest functions (inngest/functions) are made from the same declaration.
 * Function ids and step ids name runs in flight in Inngest: a renamed id orphans them, so an id
 * here is changed only with a migration of the runs.
 *
 * Every function-valued member is a method, so a declaration typed by its own results is still
 * a `DueWork` in the one list.
 */
export interface DueWork<Kind extends JobKind = JobKind, Result = unknown, StepResult = unknown, Row = unknown> {
  kind: Kind;
  /** Finds the rows of this kind that are due and does them (a claim keeps two drivers off one row). */
  sweep(deps: Deps): Promise<Result>;
  /** Embedded runner: the sweep runs this often, and at once when the kind is woken. */
  intervalMs: number;
  /** Embedded runner: run again at once instead of after intervalMs (the sweep stopped with work left). */
  again?(result: Result): boolean;
  /** Embedded runner: what the run did, for the `sweep done` line; null when it found nothing. */
  summary(result: Result): Record<string, unknown> | null;
  /** Inngest: the cron that runs the sweep as a safety net (or fans the due rows out to runs of their own). */
  cron: SweepCron<Result> | FanOutCron<Row>;
  /** Inngest: one durable run per row, woken by an event naming it. Without it, the cron does all the work. */
  perRow?: PerRow<StepResult>;
}

/** An Inngest function on a cron schedule that runs the sweep in one step. */
export interface SweepCron<Result> {
  functionId: string;
  schedule: string;
  step: string;
  /** What the function answers; the sweep's result when absent. */
  answer?(result: Result): unknown;
}

/**
 * An Inngest function that finds the due rows and sends the per-row function an event for each,
 * on its schedule and whenever the kind is woken (`<kind>/due`): the rows, not the wake-up, say
 * what is due. It answers `{ due: <rows found> }`.
 */
export interface FanOutCron<Row> {
  functionId: string;
  schedule: string;
  /** The step that reads the due rows, and the step that sends their events. */
  step: string;
  sendStep: string;
  due(deps: Deps): Promise<Row[]>;
  /** The per-row event of a row: its id de-duplicates (Inngest keeps one event per id), its data names the row. */
  eventOf(row: Row): { id: string; data: Record<string, string> };
}

/** After its first step, a per-row run sleeps until the row is due again, while it is. */
export interface RepeatWhenDue<StepResult> {
  /** When the row is due again (a retry, a test-mode step); null: done. Sleeps are steps `wait-<n>`. */
  nextDueAt(result: StepResult): string | null;
  /** Steps at most, the first included. */
  maxSteps: number;
}

/** After its first step, a per-row run goes on at once while there is more; what is left then is woken again. */
export interface RepeatWhileMore<StepResult> {
  more(result: StepResult): boolean;
  /** Steps at most, the first included. */
  maxSteps: number;
  /** The step that sends `<kind>/due` for the row again when the steps ran out with more left. */
  continueStep: string;
}

/**
 * The durable run of one row. The event's `data.id` names the row. Its work is one step (its id
 * is `step`), or repeated steps `<step>-0`, `<step>-1`, … when `repeat` is given.
 */
export interface PerRow<StepResult> {
  functionId: string;
  /** The event that starts a run: `<kind>/due` (what `jobs.wake` sends) unless the fan-out cron sends its own. */
  event?: string;
  /** At most `limit` runs at once per value of this field of the event's data. */
  concurrency?: { per: string; limit: number };
  /** Inngest's retries of a failed run (its default when absent). */
  retries?: number;
  /** When the row is due, if that is still ahead: the run sleeps (step `sleep`) until then before its first step. */
  dueAt?: { step: string; sleep: string; of(deps: Deps, id: string): Promise<string | null> };
  step: string;
  run(deps: Deps, id: string): Promise<StepResult>;
  repeat?: RepeatWhenDue<StepResult> | RepeatWhileMore<StepResult>;
  /** A last result that should fail the run, so Inngest retries it: the error's message; null otherwise. */
  failure?(result: StepResult, id: string): string | null;
  /** The run answers `{ id, outcome }`: the outcome in the last step's result (the result itself when absent). */
  outcomeOf?(result: StepResult): unknown;
}

/** A declaration, its results typed where it is written. */
export const dueWork = <Kind extends JobKind, Result, StepResult = unknown, Row = unknown>(work: DueWork<Kind, Result, StepResult, Row>): DueWork<Kind> => work as DueWork<Kind>;

export const isFanOut = (cron: DueWork['cron']): cron is FanOutCron<unknown> => 'sendStep' in cron;
export const repeatsWhenDue = (repeat: NonNullable<PerRow<unknown>['repeat']>): repeat is RepeatWhenDue<unknown> => 'nextDueAt' in repeat;
