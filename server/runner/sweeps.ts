import type { Deps } from '../deps';
import type { JobKind } from '../jobs/jobs';
import type { SweepReport } from '../services/shared/dispatch-sweep';
import { sweepBroadcasts } from '../services/broadcasts/fan-out';
import { sweepDomainChecks } from '../services/domains/verification';
import { sweepEmailDispatch } from '../services/emails/pipeline/dispatch';
import { applyRetention } from '../services/emails/retention';
import { applyDuePlanChanges } from '../services/plans/changes';
import { sweepSystemEmails } from '../services/system-mail/queue';
import { sweepWebhookDeliveries } from '../services/webhooks/deliver';

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
  /** What the run did, for the log; null when it found nothing to do. */
  summary(result: unknown): Record<string, unknown> | null;
}

function sweep<T>(definition: {
  kind: JobKind;
  intervalMs: number;
  run(deps: Deps): Promise<T>;
  again?(result: T): boolean;
  summary(result: T): Record<string, unknown> | null;
}): Sweep {
  return definition as Sweep;
}

/** A dispatch sweep that handled rows may have stopped at its time budget with more due: it runs again at once. */
const dispatchSweep = (kind: JobKind, intervalMs: number, run: (deps: Deps) => Promise<SweepReport<string>>) =>
  sweep({
    kind,
    intervalMs,
    run,
    again: (report) => report.handled > 0,
    summary: (report) => (report.handled > 0 ? { handled: report.handled, outcomes: report.outcomes } : null),
  });

const counted = (name: string) => (count: number) => (count > 0 ? { [name]: count } : null);

export const SWEEPS: Sweep[] = [
  sweep({ kind: 'system-mail', intervalMs: 5_000, run: sweepSystemEmails, summary: counted('handled') }),
  sweep({ kind: 'domain-check', intervalMs: 15_000, run: sweepDomainChecks, summary: counted('checked') }),
  dispatchSweep('email-dispatch', 1_000, sweepEmailDispatch),
  // Polled often: an event logged inside a transaction may wake the sweep before it commits.
  dispatchSweep('webhook-delivery', 500, sweepWebhookDeliveries),
  // A sweep that worked on a broadcast may have stopped at its budget with chunks left: again at once.
  sweep({
    kind: 'broadcast-fanout',
    intervalMs: 2_000,
    run: sweepBroadcasts,
    again: (report) => (report.outcomes.more ?? 0) > 0,
    summary: (report) => (report.handled > 0 ? { handled: report.handled, outcomes: report.outcomes } : null),
  }),
  // Caps read the plan in force without waiting for this; it writes down downgrades already due.
  sweep({ kind: 'plan-changes', intervalMs: 5_000, run: applyDuePlanChanges, summary: counted('applied') }),
  sweep({ kind: 'retention', intervalMs: 3_600_000, run: applyRetention, summary: (result) => (result.emailsDeleted + result.eventsDeleted + result.attachmentsExpired + result.auditEventsDeleted > 0 ? result : null) }),
];
