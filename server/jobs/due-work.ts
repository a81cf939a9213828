import { runAutomationRun, runDueAt, sweepAutomationRuns } from '../services/automations';
import { applyAutomationRetention } from '../services/automations/retention';
import { sweepDateTriggers } from '../services/automations/triggers/dates';
import { sweepRuleSegmentTriggers } from '../services/automations/triggers/rule-segments';
import { sweepEmailEventTriggers } from '../services/automations/triggers/email-feed';
import { broadcastDueAt, runBroadcast, sweepBroadcasts } from '../services/broadcasts/fan-out';
import { runContactImport, sweepContactImports } from '../services/contact-imports/run';
import { checkDomain, DOMAIN_SWEEP_PAGE, sweepDomainChecks } from '../services/domains/verification';
import { dispatchEmail, nextAttemptAtOf, sweepEmailDispatch } from '../services/emails/pipeline/dispatch';
import { applyRetention } from '../services/emails/retention';
import { reportOverage } from '../services/billing/overage-meter';
import { restrictUnpaidAccounts } from '../services/billing/payment-standing';
import { applyDuePlanChanges } from '../services/plans/changes';
import { deleteUnconfirmedContacts } from '../services/double-opt-in';
import type { SweepReport } from '../services/shared/dispatch-sweep';
import { runSunset, sunsetAudience } from '../services/sunset/run';
import { deliverSystemEmail, sweepSystemEmails } from '../services/system-mail/queue';
import { dueDeliveries } from '../services/webhooks/claim';
import { attemptDelivery, PER_ENDPOINT, sweepWebhookDeliveries } from '../services/webhooks/deliver';
import { MAX_ATTEMPTS } from '../services/webhooks/schedule';
import { DAY_MS } from '../services/shared/time';
import { dueWork, type DueWork } from './declaration';
import { JOB_KINDS, type JobKind } from './jobs';

// Every kind of background work on one page: what its sweep is, how often the embedded runner
// polls it, the cron and the per-row run Inngest makes of it. server/runner/sweeps.ts and
// inngest/functions derive from this list and declare nothing of their own.

const EVERY_MINUTE = '* * * * *';

/** A sweep that found nothing says nothing: an idle poll every second is not news. */
const counted = (name: string) => (count: number) => (count > 0 ? { [name]: count } : null);

/** A dispatch sweep that handled rows may have stopped at its time budget with more due: it runs again at once. */
const dispatchRules = {
  again: (report: SweepReport<string>) => report.handled > 0,
  summary: (report: SweepReport<string>) => (report.handled > 0 ? { handled: report.handled, outcomes: report.outcomes } : null),
};

const systemMail = dueWork({
  kind: 'system-mail',
  sweep: sweepSystemEmails,
  intervalMs: 5_000,
  summary: counted('handled'),
  cron: { functionId: 'system-mail-sweep', schedule: '*/5 * * * *', step: 'sweep', answer: (sent) => ({ sent }) },
  perRow: {
    functionId: 'system-mail-deliver',
    retries: 5,
    step: 'deliver',
    run: deliverSystemEmail,
    // Inngest's retries are the back-off here: a refused message fails the run.
    failure: (delivery, id) => (delivery === 'retry' ? `system email ${id} was not accepted yet` : null),
  },
});

/** "Verify now" and registration wake a check at once; the cron runs the polling schedule the rows hold. */
const domainCheck = dueWork({
  kind: 'domain-check',
  sweep: sweepDomainChecks,
  intervalMs: 15_000,
  // A full page may have left domains due behind it (a backlog after an outage): again at once.
  again: (checked) => checked >= DOMAIN_SWEEP_PAGE,
  summary: counted('checked'),
  cron: { functionId: 'domain-check-sweep', schedule: EVERY_MINUTE, step: 'sweep', answer: (checked) => ({ checked }) },
  perRow: { functionId: 'domain-check', concurrency: { per: 'id', limit: 1 }, step: 'check-dns', run: checkDomain },
});

/**
 * One run per accepted (or rescheduled) email: it sleeps until the email is due, dispatches it,
 * and sleeps again for each retry or test-mode step. A cancelled or rescheduled email makes the
 * dispatch a no-op ('skipped'); the rescheduling sent its own event.
 */
const emailDispatch = dueWork({
  kind: 'email-dispatch',
  sweep: sweepEmailDispatch,
  intervalMs: 1_000,
  ...dispatchRules,
  cron: { functionId: 'email-dispatch-sweep', schedule: EVERY_MINUTE, step: 'sweep' },
  perRow: {
    functionId: 'email-dispatch',
    concurrency: { per: 'id', limit: 1 },
    dueAt: { step: 'due-at', sleep: 'wait-0', of: nextAttemptAtOf },
    step: 'dispatch',
    run: dispatchEmail,
    repeat: { nextDueAt: (result) => result.nextAttemptAt, maxSteps: 40 },
    outcomeOf: (result) => result.outcome,
  },
});

/**
 * Polled often by the runner: an event logged inside a transaction may wake the sweep before it
 * commits. In Inngest, one run per delivery: an attempt, then a sleep until each retry is due (the
 * schedule is the service's, stored on the delivery), at most PER_ENDPOINT runs at once per
 * endpoint. The fan-out, woken when events are logged and every minute, sends one event per due
 * delivery; the event id de-duplicates a delivery's attempt across fan-outs, and the claim makes a
 * second run of it a no-op.
 */
const webhookDelivery = dueWork({
  kind: 'webhook-delivery',
  sweep: sweepWebhookDeliveries,
  intervalMs: 500,
  ...dispatchRules,
  cron: {
    functionId: 'webhook-delivery-fan-out',
    schedule: EVERY_MINUTE,
    step: 'due',
    sendStep: 'attempts',
    due: dueDeliveries,
    eventOf: (delivery) => ({ id: `${delivery.id}-${delivery.attempts}`, data: { id: delivery.id, webhookId: delivery.webhookId } }),
  },
  perRow: {
    functionId: 'webhook-delivery',
    event: 'webhook-delivery/attempt',
    concurrency: { per: 'webhookId', limit: PER_ENDPOINT },
    step: 'attempt',
    run: attemptDelivery,
    repeat: { nextDueAt: (report) => report.nextAttemptAt, maxSteps: MAX_ATTEMPTS },
    outcomeOf: (report) => report.outcome,
  },
});

/**
 * A sweep that worked on a broadcast may have stopped at its budget with chunks left: again at
 * once. In Inngest, one run per send, schedule or resume: it sleeps until the broadcast is due,
 * then fans it out a step at a time (each step a few seconds of chunks, under the broadcast's
 * claim), one run per organization at a time so a broadcast never competes with another of its
 * own for the organization's limits. A held broadcast ends the run; the resume wakes a new one,
 * and the cron takes up limit holds when their reset comes.
 */
const broadcastFanout = dueWork({
  kind: 'broadcast-fanout',
  sweep: sweepBroadcasts,
  intervalMs: 2_000,
  again: (report) => (report.outcomes.more ?? 0) > 0,
  summary: (report) => (report.handled > 0 ? { handled: report.handled, outcomes: report.outcomes } : null),
  cron: { functionId: 'broadcast-fanout-sweep', schedule: EVERY_MINUTE, step: 'sweep' },
  perRow: {
    functionId: 'broadcast-fanout',
    concurrency: { per: 'organizationId', limit: 1 },
    dueAt: { step: 'due-at', sleep: 'wait', of: broadcastDueAt },
    step: 'fan-out',
    run: runBroadcast,
    repeat: { more: (outcome) => outcome === 'more', maxSteps: 400, continueStep: 'continue' },
  },
});

/**
 * A contact import (docs/contacts.md, "Imports"): a sweep that worked on one may have stopped at
 * its budget with rows left: again at once. In Inngest, one run per import, batches of 1,000 rows a
 * step at a time (each step a few seconds of batches, under the import's claim), one run per
 * organization at a time: an organization's imports take the plan's contact cap one after the other.
 */
const contactImport = dueWork({
  kind: 'contact-import',
  sweep: sweepContactImports,
  intervalMs: 2_000,
  again: (report) => (report.outcomes.more ?? 0) > 0,
  summary: (report) => (report.handled > 0 || report.abandoned > 0 ? { handled: report.handled, outcomes: report.outcomes, abandoned: report.abandoned } : null),
  cron: { functionId: 'contact-import-sweep', schedule: EVERY_MINUTE, step: 'sweep' },
  perRow: {
    functionId: 'contact-import',
    concurrency: { per: 'organizationId', limit: 1 },
    step: 'import',
    run: (deps, id) => runContactImport(deps, id),
    repeat: { more: (outcome) => outcome === 'more', maxSteps: 400, continueStep: 'continue' },
  },
});

/** Caps read the plan in force without waiting for this; it writes down downgrades whose billing period has ended. */
const planChanges = dueWork({
  kind: 'plan-changes',
  sweep: applyDuePlanChanges,
  intervalMs: 5_000,
  summary: counted('applied'),
  cron: { functionId: 'plan-changes', schedule: EVERY_MINUTE, step: 'apply-due-plan-changes', answer: (applied) => ({ applied }) },
});

/** A failed renewal's grace period ends unpaid: sending is restricted (docs/billing.md). A minute late is no matter; a day would be. */
const paymentGrace = dueWork({
  kind: 'payment-grace',
  sweep: restrictUnpaidAccounts,
  intervalMs: 60_000,
  summary: counted('restricted'),
  cron: { functionId: 'payment-grace', schedule: EVERY_MINUTE, step: 'restrict-unpaid-accounts', answer: (restricted) => ({ restricted }) },
});

/**
 * Started thousands past the quota go to Stripe as meter events (docs/billing.md). Every minute:
 * the last thousands of a month must reach Stripe within the hour it waits before closing that
 * month's invoice. Without Stripe it answers 0 at once.
 */
const overageMeter = dueWork({
  kind: 'overage-meter',
  sweep: reportOverage,
  intervalMs: 60_000,
  summary: counted('reported'),
  cron: { functionId: 'overage-meter', schedule: EVERY_MINUTE, step: 'report-overage', answer: (reported) => ({ reported }) },
});

/** Hourly: emails, event-log rows and form submissions past their plan's log retention, attachment contents past 30 days and audit rows past 400 days are deleted, and deleted organizations past their grace period erased. */
const retention = dueWork({
  kind: 'retention',
  sweep: applyRetention,
  intervalMs: 3_600_000,
  summary: (result) => (result.emailsDeleted + result.eventsDeleted + result.formSubmissionsDeleted + result.attachmentsExpired + result.auditEventsDeleted + result.organizationsErased > 0 ? result : null),
  cron: { functionId: 'retention', schedule: '17 * * * *', step: 'apply-retention' },
});

/**
 * Daily: members with no human open or click for their audience's sunset months are set sunset
 * there, and those a raised or removed setting no longer covers are lifted (docs/audiences.md,
 * "Sunset"). A changed setting wakes its audience at once: in Inngest a run of that audience, in
 * the embedded runner the sweep.
 */
const sunset = dueWork({
  kind: 'sunset',
  sweep: runSunset,
  intervalMs: DAY_MS,
  summary: (result) => (result.sunset + result.lifted + result.reengaged > 0 ? { ...result } : null),
  cron: { functionId: 'sunset', schedule: '41 3 * * *', step: 'run-sunset' },
  perRow: { functionId: 'sunset-audience', concurrency: { per: 'id', limit: 1 }, step: 'apply-sunset', run: sunsetAudience },
});

/**
 * Hourly: contacts a double opt-in left pending 30 days after their last confirmation email are
 * deleted when the request made them, and no longer pending (still unsubscribed) when they were
 * there before it (docs/consent.md).
 */
const unconfirmedContacts = dueWork({
  kind: 'unconfirmed-contacts',
  sweep: deleteUnconfirmedContacts,
  intervalMs: 3_600_000,
  summary: (result) => (result.deleted + result.ended > 0 ? { ...result } : null),
  // The step keeps its id: a run Inngest holds replays by it.
  cron: { functionId: 'unconfirmed-contacts', schedule: '41 * * * *', step: 'delete-unconfirmed-contacts' },
});

/**
 * An automation's run (docs/automations.md, "Runs"): each due run is claimed and taken step after
 * step until it waits (a delay, a wait for an event, a limit's retry) or ends. In Inngest, one
 * durable run per automation run: it sleeps until the run is due (`step.sleepUntil`), takes its
 * steps, and sleeps again until the next wake time the row holds; an event that ends a wait sends a
 * new one (the old sleeper then finds the run taken and does nothing). Postgres holds the state.
 */
const automationRun = dueWork({
  kind: 'automation-run',
  sweep: sweepAutomationRuns,
  intervalMs: 1_000,
  again: (report) => report.more,
  summary: (report) => (report.handled > 0 ? { handled: report.handled, outcomes: report.outcomes } : null),
  cron: { functionId: 'automation-run-sweep', schedule: EVERY_MINUTE, step: 'sweep' },
  perRow: {
    functionId: 'automation-run',
    concurrency: { per: 'id', limit: 1 },
    dueAt: { step: 'due-at', sleep: 'wait-0', of: (deps, id) => runDueAt(deps, id) },
    step: 'take-steps',
    run: runAutomationRun,
    repeat: { nextDueAt: (turn) => turn.nextDueAt, maxSteps: 200 },
    outcomeOf: (turn) => turn.outcome,
  },
});

/**
 * Email events start automations (docs/automations.md, "Email triggers"): the event log's email
 * events, read after each listening organization's cursor once they are a minute old, start their
 * runs. Off the hot path: the event writer does nothing for it.
 */
const automationEmailTriggers = dueWork({
  kind: 'automation-email-triggers',
  sweep: sweepEmailEventTriggers,
  intervalMs: 15_000,
  summary: counted('started'),
  cron: { functionId: 'automation-email-triggers', schedule: EVERY_MINUTE, step: 'start-runs', answer: (started) => ({ started }) },
});

/** Hourly: each date automation's contacts whose day it is start their runs, once per automation per UTC day (a second sweep that day finds it done). */
const automationDateTriggers = dueWork({
  kind: 'automation-date-triggers',
  sweep: sweepDateTriggers,
  intervalMs: 3_600_000,
  summary: counted('started'),
  cron: { functionId: 'automation-date-triggers', schedule: '23 * * * *', step: 'start-runs', answer: (started) => ({ started }) },
});

/** Every five minutes: each rule segment an enabled automation's trigger names is evaluated, and the contacts that came to match start their runs. */
const automationSegmentTriggers = dueWork({
  kind: 'automation-segment-triggers',
  sweep: sweepRuleSegmentTriggers,
  intervalMs: 300_000,
  summary: counted('started'),
  cron: { functionId: 'automation-segment-triggers', schedule: '*/5 * * * *', step: 'start-runs', answer: (started) => ({ started }) },
});

/**
 * Hourly: finished automation runs (with their step history) and the events sent with
 * `POST /events/send` past the plan's log retention, automation email records past a year, and
 * versions no run names a day after they were replaced, are deleted in bounded batches
 * (docs/automations.md, "Retention"); a sweep stopped at its bound runs again at once.
 */
const automationRetention = dueWork({
  kind: 'automation-retention',
  sweep: applyAutomationRetention,
  intervalMs: 3_600_000,
  again: (report) => report.more,
  summary: ({ more: _more, ...deleted }) => (deleted.runsDeleted + deleted.receivedEventsDeleted + deleted.versionsDeleted + deleted.automationEmailsDeleted > 0 ? deleted : null),
  cron: { functionId: 'automation-retention', schedule: '29 * * * *', step: 'apply-retention' },
});

/** The declaration of each kind, by its name (the type refuses a kind left out or a declaration under another's name). */
export const DUE_WORK: { readonly [K in JobKind]: DueWork<K> } = {
  'system-mail': systemMail,
  'domain-check': domainCheck,
  'email-dispatch': emailDispatch,
  'webhook-delivery': webhookDelivery,
  'broadcast-fanout': broadcastFanout,
  'contact-import': contactImport,
  'plan-changes': planChanges,
  'payment-grace': paymentGrace,
  'overage-meter': overageMeter,
  retention,
  sunset,
  'unconfirmed-contacts': unconfirmedContacts,
  'automation-run': automationRun,
  'automation-email-triggers': automationEmailTriggers,
  'automation-date-triggers': automationDateTriggers,
  'automation-segment-triggers': automationSegmentTriggers,
  'automation-retention': automationRetention,
};

/** Every declaration, in the order of JOB_KINDS. */
export const DUE_WORK_LIST: ReadonlyArray<DueWork> = JOB_KINDS.map((kind) => DUE_WORK[kind]);
