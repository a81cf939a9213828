import type { Deps } from '../deps';
import type { DueWork } from '../jobs/declaration';
import { DUE_WORK_LIST } from '../jobs/due-work';
import type { JobKind } from '../jobs/jobs';

/**
 * What the embedded runner polls of a kind of due work: its sweep, interval and the rules of
 * running it again at once and of logging it. Taken from the kind's declaration (jobs/due-work.ts).
 */
export interface Sweep {
  kind: JobKind;
  intervalMs: number;
  run(deps: Deps): Promise<unknown>;
  /** Whether to run again at once instead of after intervalMs: the sweep stopped with work left. */
  again?(result: unknown): boolean;
  /** What the run did, for the log; null when it found nothing to do. */
  summary(result: unknown): Record<string, unknown> | null;
}

export const sweepOf = ({ kind, intervalMs, sweep, again, summary }: DueWork): Sweep => ({ kind, intervalMs, run: sweep, again, summary });

/** One sweep per declared kind of due work. */
export const SWEEPS: Sweep[] = DUE_WORK_LIST.map(sweepOf);
