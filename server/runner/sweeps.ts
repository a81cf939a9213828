import type { Deps } from '../deps';
import type { JobKind } from '../jobs/jobs';
import { sweepDomainChecks } from '../services/domains/verification';
import { sweepEmailDispatch } from '../services/emails/pipeline/dispatch';
import { applyRetention } from '../services/emails/retention';
import { sweepSystemEmails } from '../services/system-mail/queue';

/**
 * A sweep finds due rows of one kind and hands each to its service. The embedded runner polls
 * these; in production an Inngest cron runs the same function as a safety net.
 */
export interface Sweep {
  kind: JobKind;
  intervalMs: number;
  run(deps: Deps): Promise<unknown>;
  /** Whether to run again at once instead of after intervalMs: the sweep stopped with work left. */
  again?(result: unknown): boolean;
}

export const SWEEPS: Sweep[] = [
  { kind: 'system-mail', intervalMs: 5_000, run: sweepSystemEmails },
  { kind: 'domain-check', intervalMs: 15_000, run: sweepDomainChecks },
  // A sweep that handled emails may have stopped at its time budget with more due.
  { kind: 'email-dispatch', intervalMs: 1_000, run: sweepEmailDispatch, again: (handled) => Number(handled) > 0 },
  { kind: 'retention', intervalMs: 3_600_000, run: applyRetention },
];
