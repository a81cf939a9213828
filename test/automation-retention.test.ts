import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { automationEmails, automationRuns, automationRunSteps, automationVersions, organizations, receivedEvents } from '@/db/schema';
import { receiveEvent, sweepAutomationRuns } from '@/server/services/automations';
import { applyAutomationRetention, AUTOMATION_EMAIL_RETENTION_DAYS, RETENTION_BATCH } from '@/server/services/automations/retention';
import { newId } from '@/server/ids';
import { DAY_MS, HOUR_MS } from '@/server/services/shared/time';
import { organizationPrincipal } from '@/server/services/shared/principal';
import { startTestApp, type TestApp } from './support/app';

// Automations' retention (docs/automations.md, "Retention"), on the test clock: finished runs and
// received events after the plan's log retention, automation email records after a year, versions
// no run names a day after they were replaced; runs still going never.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg({ plan: '10k' });
});

const deps = () => app.runtime.deps;
const call = (method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
const send = (event: string, email: string) => receiveEvent(deps(), { ...organizationPrincipal(org.organizationId, '10k'), mode: 'live' }, { event, contact: { email }, payload: {} });
const retain = () => applyAutomationRetention(deps());

async function contact(email: string): Promise<void> {
  const created = await call('POST', '/contacts', { email });
  expect(created.status, created.text).toBe(201);
}

/** `user.created` ends at once (completed); `trial.started` waits for `paid` up to 30 days (running). */
async function automations(): Promise<{ quick: string; waiting: string }> {
  const quick = await call('POST', '/automations', {
    name: 'Quick',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
      { key: 'tag', type: 'contact_update', config: { last_name: 'One' } },
    ],
    connections: [{ from: 'start', to: 'tag' }],
  });
  expect(quick.status, quick.text).toBe(201);
  const waiting = await call('POST', '/automations', {
    name: 'Waiting',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { event_name: 'trial.started' } },
      { key: 'paid', type: 'wait_for_event', config: { event_name: 'paid', timeout: '30 days' } },
      { key: 'done', type: 'contact_update', config: { last_name: 'Paid' } },
      { key: 'late', type: 'contact_update', config: { last_name: 'Late' } },
    ],
    connections: [
      { from: 'start', to: 'paid' },
      { from: 'paid', to: 'done', type: 'event_received' },
      { from: 'paid', to: 'late', type: 'timeout' },
    ],
  });
  expect(waiting.status, waiting.text).toBe(201);
  return { quick: quick.body.id, waiting: waiting.body.id };
}

const runsOf = (automationId: string) => deps().db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId)).orderBy(asc(automationRuns.createdAt));
const versionsOf = async (automationId: string) =>
  (await deps().db.select({ version: automationVersions.version }).from(automationVersions).where(eq(automationVersions.automationId, automationId)).orderBy(asc(automationVersions.version))).map((row) => row.version);

describe('automation retention', () => {
  it('deletes finished runs with their steps and received events after the plan’s log retention, never a run still going', async () => {
    const { quick, waiting } = await automations();
    await contact('ada@example.net');
    await send('user.created', 'ada@example.net');
    await send('trial.started', 'ada@example.net');
    await send('user.created', 'nobody@example.net');
    await sweepAutomationRuns(deps());
    const [done] = await runsOf(quick);
    expect(done).toMatchObject({ status: 'completed' });
    expect((await runsOf(waiting))[0]).toMatchObject({ status: 'running', stepKey: 'paid' });

    // 29 days on: nothing is past the 10k plan's 30 days.
    app.clock.advance(29 * DAY_MS);
    expect(await retain()).toEqual({ runsDeleted: 0, receivedEventsDeleted: 0, versionsDeleted: 0, automationEmailsDeleted: 0, more: false });

    // A day and an hour later: the finished run and its history, and the three events, are gone;
    // the run still waiting (its timeout not swept yet) stays, however old.
    app.clock.advance(DAY_MS + HOUR_MS);
    expect(await retain()).toEqual({ runsDeleted: 1, receivedEventsDeleted: 3, versionsDeleted: 0, automationEmailsDeleted: 0, more: false });
    expect(await runsOf(quick)).toEqual([]);
    expect(await deps().db.select().from(automationRunSteps).where(eq(automationRunSteps.runId, done!.id))).toEqual([]);
    expect(await deps().db.select().from(receivedEvents).where(eq(receivedEvents.organizationId, org.organizationId))).toEqual([]);
    expect(await runsOf(waiting)).toEqual([expect.objectContaining({ status: 'running' })]);
  });

  it('keeps finished runs for 90 days on a plan that keeps logs 90 days, counted from when they finished', async () => {
    await app.runtime.deps.db.update(organizations).set({ plan: '500k' }).where(eq(organizations.id, org.organizationId));
    const { waiting } = await automations();
    await contact('ada@example.net');
    await send('trial.started', 'ada@example.net');
    await sweepAutomationRuns(deps());
    // It waits 20 days for `paid`, then finishes.
    app.clock.advance(20 * DAY_MS);
    await send('paid', 'ada@example.net');
    await sweepAutomationRuns(deps());
    expect((await runsOf(waiting))[0]).toMatchObject({ status: 'completed' });

    // Each event goes 90 days after it came: the first before the run, which finished 20 days later.
    app.clock.advance(89 * DAY_MS);
    expect(await retain()).toMatchObject({ runsDeleted: 0, receivedEventsDeleted: 1 });
    app.clock.advance(2 * DAY_MS);
    expect(await retain()).toMatchObject({ runsDeleted: 1, receivedEventsDeleted: 1 });
    expect(await runsOf(waiting)).toEqual([]);
  });

  it('keeps an automation email’s record when its run goes (its unsubscribe link reads it), and deletes it after a year', async () => {
    const { quick } = await automations();
    await contact('ada@example.net');
    await send('user.created', 'ada@example.net');
    await sweepAutomationRuns(deps());
    const [run] = await runsOf(quick);
    // The record a send_email step writes (test/automation-runs.test.ts sends real ones), here for the finished run.
    const emailId = newId();
    await deps().db.insert(automationEmails).values({ emailId, organizationId: org.organizationId, automationId: quick, runId: run!.id, stepKey: 'tag', contactId: run!.contactId, topicId: null, test: false, createdAt: app.clock.now() });

    app.clock.advance(31 * DAY_MS);
    expect(await retain()).toMatchObject({ runsDeleted: 1, automationEmailsDeleted: 0 });
    expect(await deps().db.select({ runId: automationEmails.runId }).from(automationEmails).where(eq(automationEmails.emailId, emailId))).toEqual([{ runId: null }]);

    app.clock.advance((AUTOMATION_EMAIL_RETENTION_DAYS - 31) * DAY_MS + HOUR_MS);
    expect(await retain()).toMatchObject({ automationEmailsDeleted: 1 });
    expect(await deps().db.select().from(automationEmails).where(eq(automationEmails.emailId, emailId))).toEqual([]);
  });

  it('deletes a replaced version once no run names it and it was replaced a day ago; the current one and those runs pin stay', async () => {
    const { quick, waiting } = await automations();
    await contact('ada@example.net');
    const edit = async (id: string, lastName: string, trigger: string, extra: Array<Record<string, unknown>> = [], connections: Array<Record<string, unknown>> = []) => {
      const changed = await call('PATCH', `/automations/${id}`, {
        steps: [{ key: 'start', type: 'trigger', config: { event_name: trigger } }, { key: 'tag', type: 'contact_update', config: { last_name: lastName } }, ...extra],
        connections: [{ from: 'start', to: 'tag' }, ...connections],
      });
      expect(changed.status, changed.text).toBe(200);
    };
    // Quick: version 1 has no run; version 2 has a finished run; version 3 is current.
    await edit(quick, 'Two', 'user.created');
    await send('user.created', 'ada@example.net');
    await sweepAutomationRuns(deps());
    await edit(quick, 'Three', 'user.created');
    // Waiting: version 1 pins a run still going; version 2 is current.
    await send('trial.started', 'ada@example.net');
    await sweepAutomationRuns(deps());
    await edit(waiting, 'Later', 'trial.started');
    expect(await versionsOf(quick)).toEqual([1, 2, 3]);

    // Replaced less than a day ago: a run may be starting on it right now.
    app.clock.advance(HOUR_MS);
    expect((await retain()).versionsDeleted).toBe(0);
    app.clock.advance(DAY_MS);
    expect((await retain()).versionsDeleted).toBe(1);
    expect(await versionsOf(quick)).toEqual([2, 3]);
    expect(await versionsOf(waiting)).toEqual([1, 2]);

    // Once the finished run is past retention, its version goes with it (versions come after runs in a sweep).
    app.clock.advance(30 * DAY_MS);
    expect(await retain()).toMatchObject({ runsDeleted: 1, versionsDeleted: 1 });
    expect(await versionsOf(quick)).toEqual([3]);
    expect(await versionsOf(waiting)).toEqual([1, 2]);
  });

  it('deletes in bounded batches and says when more is left', async () => {
    const { quick } = await automations();
    const [run] = await (async () => {
      await contact('ada@example.net');
      await send('user.created', 'ada@example.net');
      await sweepAutomationRuns(deps());
      return runsOf(quick);
    })();
    // More records than ten batches hold: one sweep takes ten batches and reports more.
    const rows = Array.from({ length: RETENTION_BATCH * 10 + 5 }, () => ({ emailId: newId(), organizationId: org.organizationId, automationId: quick, runId: run!.id, stepKey: 'tag', contactId: null, topicId: null, test: false, createdAt: app.clock.now() }));
    for (let at = 0; at < rows.length; at += 1_000) await deps().db.insert(automationEmails).values(rows.slice(at, at + 1_000));
    app.clock.advance((AUTOMATION_EMAIL_RETENTION_DAYS + 1) * DAY_MS);
    expect(await retain()).toMatchObject({ automationEmailsDeleted: RETENTION_BATCH * 10, more: true });
    expect(await retain()).toMatchObject({ automationEmailsDeleted: 5, more: false });
    expect(await deps().db.select().from(automationEmails).where(and(eq(automationEmails.organizationId, org.organizationId)))).toEqual([]);
  });
});
