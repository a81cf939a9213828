import { describe, expect, it } from 'vitest';
import { InngestTestEngine, mockCtx } from '@inngest/test';
import type { InngestFunction } from 'inngest';
import { createFunctions, functionsFor } from '@/inngest/functions';
import { isFanOut } from '@/server/jobs/declaration';
import { DUE_WORK, DUE_WORK_LIST } from '@/server/jobs/due-work';
import { JOB_KINDS, type JobKind } from '@/server/jobs/jobs';
import { SWEEPS } from '@/server/runner/sweeps';

// The declarations are the one place a kind of due work is described; the runner's sweeps and the
// Inngest functions must be made from them, and an Inngest function id or step id must not move
// (runs in flight are addressed by them). The values pinned here are those of the functions as
// they were written by hand before the declarations.

/** The functions here never reach a service: their steps are stood in for. */
const noDeps = () => {
  throw new Error('a step ran a service function');
};

describe('the declarations of due work', () => {
  it('declare every kind exactly once, under its own name', () => {
    expect(Object.keys(DUE_WORK).sort()).toEqual([...JOB_KINDS].sort());
    for (const kind of JOB_KINDS) expect(DUE_WORK[kind].kind).toBe(kind);
    expect(DUE_WORK_LIST.map((work) => work.kind)).toEqual([...JOB_KINDS]);
  });

  it('give the embedded runner one sweep per kind: its service function, interval and rules', () => {
    expect(SWEEPS.map((sweep) => sweep.kind)).toEqual([...JOB_KINDS]);
    for (const sweep of SWEEPS) {
      const work = DUE_WORK[sweep.kind];
      expect(sweep).toEqual({ kind: work.kind, intervalMs: work.intervalMs, run: work.sweep, again: work.again, summary: work.summary });
    }
    expect(Object.fromEntries(SWEEPS.map((sweep) => [sweep.kind, sweep.intervalMs]))).toEqual({
      'system-mail': 5_000,
      'domain-check': 15_000,
      'email-dispatch': 1_000,
      'webhook-delivery': 500,
      'broadcast-fanout': 2_000,
      'contact-import': 2_000,
      'plan-changes': 5_000,
      'payment-grace': 60_000,
      'overage-meter': 60_000,
      retention: 3_600_000,
      sunset: 86_400_000,
      'unconfirmed-contacts': 3_600_000,
      'automation-run': 1_000,
      'automation-email-triggers': 15_000,
      'automation-date-triggers': 3_600_000,
      'automation-segment-triggers': 300_000,
      'automation-retention': 3_600_000,
    });
  });

  it('keep the runner\'s rules of running again at once and of logging a sweep', () => {
    const sweep = (kind: JobKind) => SWEEPS.find((one) => one.kind === kind)!;
    for (const kind of ['email-dispatch', 'webhook-delivery'] as const) {
      expect(sweep(kind).again!({ handled: 2, outcomes: { delivered: 2 } })).toBe(true);
      expect(sweep(kind).again!({ handled: 0, outcomes: {} })).toBe(false);
      expect(sweep(kind).summary({ handled: 2, outcomes: { delivered: 2 } })).toEqual({ handled: 2, outcomes: { delivered: 2 } });
      expect(sweep(kind).summary({ handled: 0, outcomes: {} })).toBeNull();
    }
    expect(sweep('broadcast-fanout').again!({ handled: 1, outcomes: { more: 1 } })).toBe(true);
    expect(sweep('broadcast-fanout').again!({ handled: 1, outcomes: { sent: 1 } })).toBe(false);
    expect(sweep('broadcast-fanout').summary({ handled: 1, outcomes: { sent: 1 } })).toEqual({ handled: 1, outcomes: { sent: 1 } });
    expect(sweep('contact-import').again!({ handled: 1, outcomes: { more: 1 }, abandoned: 0 })).toBe(true);
    expect(sweep('contact-import').again!({ handled: 1, outcomes: { completed: 1 }, abandoned: 0 })).toBe(false);
    expect(sweep('contact-import').summary({ handled: 0, outcomes: {}, abandoned: 2 })).toEqual({ handled: 0, outcomes: {}, abandoned: 2 });
    expect(sweep('contact-import').summary({ handled: 0, outcomes: {}, abandoned: 0 })).toBeNull();
    for (const kind of ['system-mail', 'plan-changes', 'payment-grace', 'overage-meter', 'retention', 'sunset', 'unconfirmed-contacts'] as const) expect(sweep(kind).again).toBeUndefined();
    expect(sweep('domain-check').again!(50)).toBe(true);
    expect(sweep('domain-check').again!(49)).toBe(false);
    expect(sweep('system-mail').summary(3)).toEqual({ handled: 3 });
    expect(sweep('domain-check').summary(2)).toEqual({ checked: 2 });
    expect(sweep('plan-changes').summary(1)).toEqual({ applied: 1 });
    expect(sweep('payment-grace').summary(1)).toEqual({ restricted: 1 });
    expect(sweep('overage-meter').summary(2)).toEqual({ reported: 2 });
    expect(sweep('unconfirmed-contacts').summary({ deleted: 4, ended: 0 })).toEqual({ deleted: 4, ended: 0 });
    expect(sweep('unconfirmed-contacts').summary({ deleted: 0, ended: 1 })).toEqual({ deleted: 0, ended: 1 });
    expect(sweep('unconfirmed-contacts').summary({ deleted: 0, ended: 0 })).toBeNull();
    for (const kind of ['system-mail', 'domain-check', 'plan-changes', 'payment-grace', 'overage-meter'] as const) expect(sweep(kind).summary(0)).toBeNull();
    const retention = { emailsDeleted: 0, eventsDeleted: 0, formSubmissionsDeleted: 0, attachmentsExpired: 1, auditEventsDeleted: 0, organizationsErased: 0 };
    expect(sweep('retention').summary(retention)).toEqual(retention);
    expect(sweep('retention').summary({ ...retention, attachmentsExpired: 0 })).toBeNull();
    expect(sweep('retention').summary({ ...retention, attachmentsExpired: 0, formSubmissionsDeleted: 2 })).toEqual({ ...retention, attachmentsExpired: 0, formSubmissionsDeleted: 2 });
    expect(sweep('sunset').summary({ audiences: 2, sunset: 3, lifted: 0, reengaged: 0 })).toEqual({ audiences: 2, sunset: 3, lifted: 0, reengaged: 0 });
    expect(sweep('sunset').summary({ audiences: 1, sunset: 0, lifted: 0, reengaged: 4 })).toEqual({ audiences: 1, sunset: 0, lifted: 0, reengaged: 4 });
    expect(sweep('sunset').summary({ audiences: 2, sunset: 0, lifted: 0, reengaged: 0 })).toBeNull();
    expect(sweep('automation-run').again!({ handled: 50, outcomes: { waiting: 50 }, more: true })).toBe(true);
    expect(sweep('automation-run').again!({ handled: 3, outcomes: { waiting: 3 }, more: false })).toBe(false);
    expect(sweep('automation-run').summary({ handled: 3, outcomes: { waiting: 2, stopped: 1 }, more: false })).toEqual({ handled: 3, outcomes: { waiting: 2, stopped: 1 } });
    expect(sweep('automation-run').summary({ handled: 0, outcomes: {}, more: false })).toBeNull();
    const automationRetention = { runsDeleted: 2, receivedEventsDeleted: 0, versionsDeleted: 1, automationEmailsDeleted: 0 };
    expect(sweep('automation-retention').again!({ ...automationRetention, more: true })).toBe(true);
    expect(sweep('automation-retention').again!({ ...automationRetention, more: false })).toBe(false);
    expect(sweep('automation-retention').summary({ ...automationRetention, more: true })).toEqual(automationRetention);
    expect(sweep('automation-retention').summary({ runsDeleted: 0, receivedEventsDeleted: 0, versionsDeleted: 0, automationEmailsDeleted: 0, more: false })).toBeNull();
  });

  it('give Inngest the functions of every kind, made from its declaration, with the ids, triggers and limits they had', () => {
    const functions = createFunctions(noDeps);
    expect(functions.map((fn) => fn.id())).toEqual(DUE_WORK_LIST.flatMap((work) => [...(work.perRow ? [work.perRow.functionId] : []), work.cron.functionId]));
    for (const work of DUE_WORK_LIST) {
      const cron = functions.find((fn) => fn.id() === work.cron.functionId)!;
      expect(cron.opts.triggers).toContainEqual({ cron: work.cron.schedule });
    }
    const options = Object.fromEntries(functions.map((fn) => [fn.id(), fn.opts]));
    expect(options).toEqual({
      'system-mail-deliver': { id: 'system-mail-deliver', triggers: [{ event: 'system-mail/due' }], retries: 5 },
      'system-mail-sweep': { id: 'system-mail-sweep', triggers: [{ cron: '*/5 * * * *' }] },
      'domain-check': { id: 'domain-check', triggers: [{ event: 'domain-check/due' }], concurrency: { key: 'event.data.id', limit: 1 } },
      'domain-check-sweep': { id: 'domain-check-sweep', triggers: [{ cron: '* * * * *' }] },
      'email-dispatch': { id: 'email-dispatch', triggers: [{ event: 'email-dispatch/due' }], concurrency: { key: 'event.data.id', limit: 1 } },
      'email-dispatch-sweep': { id: 'email-dispatch-sweep', triggers: [{ cron: '* * * * *' }] },
      'webhook-delivery': { id: 'webhook-delivery', triggers: [{ event: 'webhook-delivery/attempt' }], concurrency: { key: 'event.data.webhookId', limit: 16 } },
      'webhook-delivery-fan-out': { id: 'webhook-delivery-fan-out', triggers: [{ event: 'webhook-delivery/due' }, { cron: '* * * * *' }] },
      'broadcast-fanout': { id: 'broadcast-fanout', triggers: [{ event: 'broadcast-fanout/due' }], concurrency: { key: 'event.data.organizationId', limit: 1 } },
      'broadcast-fanout-sweep': { id: 'broadcast-fanout-sweep', triggers: [{ cron: '* * * * *' }] },
      'contact-import': { id: 'contact-import', triggers: [{ event: 'contact-import/due' }], concurrency: { key: 'event.data.organizationId', limit: 1 } },
      'contact-import-sweep': { id: 'contact-import-sweep', triggers: [{ cron: '* * * * *' }] },
      'plan-changes': { id: 'plan-changes', triggers: [{ cron: '* * * * *' }] },
      'payment-grace': { id: 'payment-grace', triggers: [{ cron: '* * * * *' }] },
      'overage-meter': { id: 'overage-meter', triggers: [{ cron: '* * * * *' }] },
      retention: { id: 'retention', triggers: [{ cron: '17 * * * *' }] },
      'sunset-audience': { id: 'sunset-audience', triggers: [{ event: 'sunset/due' }], concurrency: { key: 'event.data.id', limit: 1 } },
      sunset: { id: 'sunset', triggers: [{ cron: '41 3 * * *' }] },
      'unconfirmed-contacts': { id: 'unconfirmed-contacts', triggers: [{ cron: '41 * * * *' }] },
      'automation-run': { id: 'automation-run', triggers: [{ event: 'automation-run/due' }], concurrency: { key: 'event.data.id', limit: 1 } },
      'automation-run-sweep': { id: 'automation-run-sweep', triggers: [{ cron: '* * * * *' }] },
      'automation-email-triggers': { id: 'automation-email-triggers', triggers: [{ cron: '* * * * *' }] },
      'automation-date-triggers': { id: 'automation-date-triggers', triggers: [{ cron: '23 * * * *' }] },
      'automation-segment-triggers': { id: 'automation-segment-triggers', triggers: [{ cron: '*/5 * * * *' }] },
      'automation-retention': { id: 'automation-retention', triggers: [{ cron: '29 * * * *' }] },
    });
  });

  it('give a fan-out cron only to a kind whose per-row function has an event of its own', () => {
    for (const work of DUE_WORK_LIST) if (isFanOut(work.cron)) expect(work.perRow?.event).toBeTruthy();
  });
});

type Step = ['run' | 'sleep' | 'send', string];

/**
 * Runs a function with its steps stood in for: `answer` gives each `step.run` its result by step
 * id; the steps taken and the events sent are recorded.
 */
async function stepsOf(fn: InngestFunction.Any, event: { name: string; data: Record<string, unknown> }, answer: (stepId: string) => unknown) {
  const steps: Step[] = [];
  const sent: unknown[] = [];
  const { result, error } = await new InngestTestEngine({
    function: fn,
    transformCtx: (ctx) => {
      const mocked = mockCtx(ctx);
      Object.assign(mocked.step, {
        run: async (id: string) => (steps.push(['run', id]), answer(id)),
        sleepUntil: async (id: string) => void steps.push(['sleep', id]),
        sendEvent: async (id: string, payload: unknown) => void (steps.push(['send', id]), sent.push(payload)),
      });
      return mocked;
    },
  }).execute({ events: [event] });
  return { steps, sent, result, error: error as Error | undefined };
}

const perRow = (kind: JobKind) => functionsFor(kind, noDeps)[0]!;
const cronOf = (kind: JobKind) => functionsFor(kind, noDeps).at(-1)!;
const LATER = '2030-01-01T00:00:00.000Z';
const id = 'row-1';

describe('the per-row runs keep the step ids of runs in flight', () => {
  it('email-dispatch: due-at, wait-0, then dispatch-n with wait-n before each retry, at most 40', async () => {
    const retried = await stepsOf(perRow('email-dispatch'), { name: 'email-dispatch/due', data: { id } }, (step) =>
      step === 'due-at' ? LATER : step === 'dispatch-0' ? { outcome: 'queued', nextAttemptAt: LATER } : { outcome: 'delivered', nextAttemptAt: null },
    );
    expect(retried.steps).toEqual([['run', 'due-at'], ['sleep', 'wait-0'], ['run', 'dispatch-0'], ['sleep', 'wait-1'], ['run', 'dispatch-1']]);
    expect(retried.result).toEqual({ id, outcome: 'delivered' });
    const endless = await stepsOf(perRow('email-dispatch'), { name: 'email-dispatch/due', data: { id } }, (step) => (step === 'due-at' ? null : { outcome: 'queued', nextAttemptAt: LATER }));
    expect(endless.steps[0]).toEqual(['run', 'due-at']);
    expect(endless.steps.filter(([kind]) => kind === 'run')).toHaveLength(41);
    expect(endless.steps.at(-1)).toEqual(['run', 'dispatch-39']);
  });

  it('webhook-delivery: attempt-0, then wait-n and attempt-n while a retry is scheduled, at most 4 attempts', async () => {
    const run = await stepsOf(perRow('webhook-delivery'), { name: 'webhook-delivery/attempt', data: { id, webhookId: 'hook' } }, (step) =>
      step === 'attempt-2' ? { outcome: 'succeeded', nextAttemptAt: null } : { outcome: 'pending', nextAttemptAt: LATER },
    );
    expect(run.steps).toEqual([['run', 'attempt-0'], ['sleep', 'wait-1'], ['run', 'attempt-1'], ['sleep', 'wait-2'], ['run', 'attempt-2']]);
    expect(run.result).toEqual({ id, outcome: 'succeeded' });
    const failing = await stepsOf(perRow('webhook-delivery'), { name: 'webhook-delivery/attempt', data: { id, webhookId: 'hook' } }, () => ({ outcome: 'pending', nextAttemptAt: LATER }));
    expect(failing.steps.at(-1)).toEqual(['run', 'attempt-3']);
  });

  it('webhook-delivery-fan-out: due, then one attempt event per due delivery, de-duplicated by attempt', async () => {
    const run = await stepsOf(cronOf('webhook-delivery'), { name: 'webhook-delivery/due', data: {} }, () => [{ id: 'd1', webhookId: 'hook', attempts: 2 }]);
    expect(run.steps).toEqual([['run', 'due'], ['send', 'attempts']]);
    expect(run.sent).toEqual([[{ name: 'webhook-delivery/attempt', id: 'd1-2', data: { id: 'd1', webhookId: 'hook' } }]]);
    expect(run.result).toEqual({ due: 1 });
    const idle = await stepsOf(cronOf('webhook-delivery'), { name: 'webhook-delivery/due', data: {} }, () => []);
    expect(idle.steps).toEqual([['run', 'due']]);
  });

  it('broadcast-fanout: due-at, wait, then fan-out-n at once while there is more; after 400 steps it wakes itself again', async () => {
    const scope = { id, organizationId: 'org-1' };
    const run = await stepsOf(perRow('broadcast-fanout'), { name: 'broadcast-fanout/due', data: scope }, (step) => (step === 'due-at' ? LATER : step === 'fan-out-0' ? 'more' : 'sent'));
    expect(run.steps).toEqual([['run', 'due-at'], ['sleep', 'wait'], ['run', 'fan-out-0'], ['run', 'fan-out-1']]);
    expect(run.result).toEqual({ id, outcome: 'sent' });
    const long = await stepsOf(perRow('broadcast-fanout'), { name: 'broadcast-fanout/due', data: scope }, (step) => (step === 'due-at' ? null : 'more'));
    expect(long.steps.filter(([kind]) => kind === 'run')).toHaveLength(401);
    expect(long.steps.slice(-2)).toEqual([['run', 'fan-out-399'], ['send', 'continue']]);
    expect(long.sent).toEqual([{ name: 'broadcast-fanout/due', data: scope }]);
    expect(long.result).toEqual({ id, outcome: 'more' });
  });

  it('contact-import: import-n at once while rows are left; after 400 steps it wakes itself again', async () => {
    const scope = { id, organizationId: 'org-1' };
    const run = await stepsOf(perRow('contact-import'), { name: 'contact-import/due', data: scope }, (step) => (step === 'import-0' ? 'more' : 'completed'));
    expect(run.steps).toEqual([['run', 'import-0'], ['run', 'import-1']]);
    expect(run.result).toEqual({ id, outcome: 'completed' });
    const long = await stepsOf(perRow('contact-import'), { name: 'contact-import/due', data: scope }, () => 'more');
    expect(long.steps.filter(([kind]) => kind === 'run')).toHaveLength(400);
    expect(long.steps.slice(-2)).toEqual([['run', 'import-399'], ['send', 'continue']]);
    expect(long.sent).toEqual([{ name: 'contact-import/due', data: scope }]);
  });

  it('automation-run: due-at, wait-0 (sleepUntil the run is due), then take-steps-n with wait-n before each delay or wait, at most 200', async () => {
    const run = await stepsOf(perRow('automation-run'), { name: 'automation-run/due', data: { id } }, (step) =>
      step === 'due-at' ? LATER : step === 'take-steps-0' ? { outcome: 'waiting', nextDueAt: LATER } : { outcome: 'stopped', nextDueAt: null },
    );
    expect(run.steps).toEqual([['run', 'due-at'], ['sleep', 'wait-0'], ['run', 'take-steps-0'], ['sleep', 'wait-1'], ['run', 'take-steps-1']]);
    expect(run.result).toEqual({ id, outcome: 'stopped' });
    // Taken by another worker (or ended by a stop meanwhile): the run does nothing and ends.
    const taken = await stepsOf(perRow('automation-run'), { name: 'automation-run/due', data: { id } }, (step) => (step === 'due-at' ? null : { outcome: 'skipped', nextDueAt: null }));
    expect(taken.steps).toEqual([['run', 'due-at'], ['run', 'take-steps-0']]);
    expect(taken.result).toEqual({ id, outcome: 'skipped' });
  });

  it('domain-check: one check-dns step', async () => {
    const run = await stepsOf(perRow('domain-check'), { name: 'domain-check/due', data: { id } }, () => 'verified');
    expect(run.steps).toEqual([['run', 'check-dns']]);
    expect(run.result).toEqual({ id, outcome: 'verified' });
  });

  it('system-mail-deliver: one deliver step; a refused message fails the run so Inngest retries it', async () => {
    const sent = await stepsOf(perRow('system-mail'), { name: 'system-mail/due', data: { id } }, () => 'sent');
    expect(sent.steps).toEqual([['run', 'deliver']]);
    expect(sent.result).toEqual({ id, outcome: 'sent' });
    const refused = await stepsOf(perRow('system-mail'), { name: 'system-mail/due', data: { id } }, () => 'retry');
    expect(refused.error?.message).toBe(`system email ${id} was not accepted yet`);
  });

  it('the crons run the sweep in one step and answer as they did', async () => {
    const timer = { name: 'inngest/scheduled.timer', data: {} };
    const report = { handled: 1, outcomes: { delivered: 1 } };
    const retention = { emailsDeleted: 1, eventsDeleted: 0, attachmentsExpired: 0, auditEventsDeleted: 0, organizationsErased: 0 };
    const cases: Array<[JobKind, string, unknown, unknown]> = [
      ['system-mail', 'sweep', 2, { sent: 2 }],
      ['domain-check', 'sweep', 3, { checked: 3 }],
      ['email-dispatch', 'sweep', report, report],
      ['broadcast-fanout', 'sweep', report, report],
      ['contact-import', 'sweep', report, report],
      ['plan-changes', 'apply-due-plan-changes', 1, { applied: 1 }],
      ['payment-grace', 'restrict-unpaid-accounts', 1, { restricted: 1 }],
      ['overage-meter', 'report-overage', 2, { reported: 2 }],
      ['retention', 'apply-retention', retention, retention],
      ['unconfirmed-contacts', 'delete-unconfirmed-contacts', { deleted: 2, ended: 1 }, { deleted: 2, ended: 1 }],
      ['automation-run', 'sweep', { handled: 1, outcomes: { waiting: 1 }, more: false }, { handled: 1, outcomes: { waiting: 1 }, more: false }],
      ['automation-email-triggers', 'start-runs', 3, { started: 3 }],
      ['automation-date-triggers', 'start-runs', 1, { started: 1 }],
      ['automation-segment-triggers', 'start-runs', 2, { started: 2 }],
      ['automation-retention', 'apply-retention', { runsDeleted: 1, more: false }, { runsDeleted: 1, more: false }],
    ];
    for (const [kind, step, swept, answer] of cases) {
      const run = await stepsOf(cronOf(kind), timer, () => swept);
      expect(run.steps, kind).toEqual([['run', step]]);
      expect(run.result, kind).toEqual(answer);
    }
  });
});
