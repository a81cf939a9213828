import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { automationRuns, automationRunSteps, contacts, emails, events, organizations, usageCounters } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { runAutomationRun, startRuns, sweepAutomationRuns } from '@/server/services/automations';
import { takeStepsTogether } from '@/server/services/automations/runs/together';
import { DAY_MS, HOUR_MS } from '@/server/services/shared/time';
import { newId } from '@/server/ids';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';

// A crowd entering at once (docs/automations.md, "A crowd at once"): the sweep takes the steps runs
// take alike (the trigger, a delay's start and end) for many runs in one transaction, and leaves
// the rest (an email) to the one-run path. The crowd must end exactly where runs taken one by one
// end: the same history rows, the same cancellations, each email once.

const CROWD = 150;
const ANOTHER_WORKER = '01a22e14-0000-7000-8000-000000000001';

describe('a crowd of runs taken together (the test clock)', () => {
  let app: TestApp;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await closeOutboundConnections();
    await app.close();
  });
  beforeEach(async () => {
    await app.reset();
    org = await reviewedSendingOrg(app);
  });

  const deps = () => app.runtime.deps;
  const call = (method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });

  async function crowdAutomation(): Promise<string> {
    const template = await call('POST', '/templates', { name: 'Hello', subject: 'Hello', html: '<p>Hello {{ contact.first_name | default: "friend" }}</p>', from: 'Acme <hello@acme.example.com>' });
    expect(template.status, template.text).toBe(201);
    const created = await call('POST', '/automations', {
      name: 'Crowd',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'crowd.entered' } },
        { key: 'a_day', type: 'delay', config: { duration: '1 day' } },
        { key: 'two_hours', type: 'delay', config: { duration: '2 hours' } },
        { key: 'hello', type: 'send_email', config: { template: { id: template.body.id } } },
      ],
      connections: [
        { from: 'start', to: 'a_day' },
        { from: 'a_day', to: 'two_hours' },
        { from: 'two_hours', to: 'hello' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  /** Contacts as rows (the API's rate limit is not what this measures). */
  async function seedContacts(count: number, prefix = 'crowd'): Promise<Array<{ id: string; email: string }>> {
    const now = app.clock.now();
    const people = Array.from({ length: count }, (_, i) => ({ id: newId(), organizationId: org.organizationId, email: `${prefix}${i}@example.net`, firstName: `C${i}`, createdAt: now, updatedAt: now }));
    await deps().db.insert(contacts).values(people);
    return people.map(({ id, email }) => ({ id, email }));
  }

  const enter = (people: Array<{ id: string; email: string }>) =>
    deps().db.transaction((tx) => startRuns(tx, deps(), { organizationId: org.organizationId, name: 'crowd.entered', payload: {}, test: false, contacts: people }));

  const historyOf = async (runId: string) =>
    (await deps().db.select().from(automationRunSteps).where(eq(automationRunSteps.runId, runId)).orderBy(asc(automationRunSteps.seq))).map((row) => ({
      seq: row.seq,
      key: row.key,
      status: row.status,
      output: row.output,
    }));

  it('brings a crowd to its first wait in one sweep, ends it where runs taken one by one end, and sends each email once', async () => {
    const automationId = await crowdAutomation();
    const people = await seedContacts(CROWD + 1);
    const [alone, ...crowd] = people;

    // One run taken by the one-run path, as a wake-up or an Inngest step takes it: the crowd's history must read the same.
    const [aloneRun] = await enter([alone!]);
    await deps().db.update(automationRuns).set({ claimedBy: null }).where(eq(automationRuns.id, aloneRun!));
    expect(await runAutomationRun(deps(), aloneRun!)).toMatchObject({ outcome: 'waiting' });

    const runIds = await enter(crowd);
    expect(runIds).toHaveLength(CROWD);
    // Before the sweep: one contact unsubscribes, one is deleted, one address is suppressed.
    const [unsubscribed, deleted, suppressed] = crowd;
    expect((await call('PATCH', `/contacts/${unsubscribed!.id}`, { unsubscribed: true })).status).toBe(200);
    expect((await call('DELETE', `/contacts/${deleted!.id}`)).status).toBe(200);
    expect((await call('POST', '/suppressions', { email: suppressed!.email })).status).toBe(200);

    const report = await sweepAutomationRuns(deps());
    expect(report.handled).toBe(CROWD);
    const runs = await deps().db.select().from(automationRuns).where(inArray(automationRuns.id, runIds));
    const byStatus = (status: string) => runs.filter((run) => run.status === status);
    expect(byStatus('cancelled').map((run) => run.endedReason).sort()).toEqual(['contact_deleted', 'contact_suppressed', 'contact_unsubscribed']);
    expect(byStatus('running')).toHaveLength(CROWD - 3);
    expect(byStatus('running').every((run) => run.stepKey === 'a_day' && run.stepState === 'waiting' && run.stepCount === 1)).toBe(true);
    const someone = byStatus('running')[0]!;
    const expectedUntil = new Date(app.clock.now().getTime() + DAY_MS).toISOString();
    expect(await historyOf(someone.id)).toEqual([
      { seq: 0, key: 'start', status: 'completed', output: { event: 'crowd.entered' } },
      { seq: 1, key: 'a_day', status: 'waiting', output: { until: expectedUntil } },
    ]);
    expect(await historyOf(aloneRun!)).toEqual(await historyOf(someone.id));
    const cancelledEvents = await deps().db.select().from(events).where(and(eq(events.organizationId, org.organizationId), eq(events.type, 'automation.run_cancelled')));
    expect(cancelledEvents).toHaveLength(3);

    // A day on: the first delay ends and the second begins, together.
    app.clock.advance(DAY_MS);
    await sweepAutomationRuns(deps());
    const waitingAgain = await deps().db.select().from(automationRuns).where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.status, 'running')));
    expect(waitingAgain).toHaveLength(CROWD - 2);
    expect(waitingAgain.every((run) => run.stepKey === 'two_hours' && run.stepState === 'waiting' && run.stepCount === 2)).toBe(true);
    expect((await historyOf(someone.id))[1]).toEqual({ seq: 1, key: 'a_day', status: 'completed', output: { waitedUntil: expectedUntil } });

    // Two hours on: the email, one run at a time, each once however often the sweep goes.
    app.clock.advance(2 * HOUR_MS);
    await sweepAutomationRuns(deps());
    await sweepAutomationRuns(deps());
    const sent = await deps().db.select({ to: emails.to }).from(emails).where(eq(emails.organizationId, org.organizationId));
    expect(sent).toHaveLength(CROWD - 2);
    expect(new Set(sent.map((email) => String(email.to))).size).toBe(CROWD - 2);
    const finished = await deps().db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId));
    expect(finished.filter((run) => run.status === 'completed')).toHaveLength(CROWD - 2);
    const withoutEmailIds = (rows: Awaited<ReturnType<typeof historyOf>>) => rows.map((row) => (row.key === 'hello' ? { ...row, output: { emailId: expect.any(String) } } : row));
    expect(await historyOf(someone.id)).toEqual(withoutEmailIds(await historyOf(aloneRun!)));
    const completedEvents = await deps().db.select().from(events).where(and(eq(events.organizationId, org.organizationId), eq(events.type, 'automation.run_completed')));
    expect(completedEvents).toHaveLength(CROWD - 2);
    expect(await deps().db.select().from(contacts).where(eq(contacts.id, deleted!.id))).toHaveLength(0);
  }, 180_000);

  it('takes nothing of a run it does not hold or that is not due', async () => {
    await crowdAutomation();
    const runIds = await enter(await seedContacts(3));
    // Held by this worker: all three; then another worker's claim on the first, and the second not due until tomorrow.
    await deps().db.update(automationRuns).set({ claimedBy: deps().claims.id }).where(inArray(automationRuns.id, runIds));
    await deps().db.update(automationRuns).set({ claimedBy: ANOTHER_WORKER }).where(eq(automationRuns.id, runIds[0]!));
    await deps().db.update(automationRuns).set({ dueAt: new Date(app.clock.now().getTime() + DAY_MS) }).where(eq(automationRuns.id, runIds[1]!));
    const outcomes = await takeStepsTogether(deps(), runIds);
    expect(runIds.map((id) => outcomes.get(id)!.went)).toEqual(['stop', 'stop', 'wait']);
    const runs = await deps().db.select().from(automationRuns).where(inArray(automationRuns.id, runIds));
    const byId = new Map(runs.map((run) => [run.id, run]));
    expect(byId.get(runIds[0]!)).toMatchObject({ stepKey: 'start', stepCount: 0, claimedBy: ANOTHER_WORKER });
    expect(byId.get(runIds[1]!)).toMatchObject({ stepKey: 'start', stepCount: 0 });
    expect(byId.get(runIds[2]!)).toMatchObject({ stepKey: 'a_day', stepState: 'waiting', stepCount: 1 });
    expect(await historyOf(runIds[0]!)).toEqual([]);
    expect(await historyOf(runIds[1]!)).toEqual([]);
  }, 60_000);

  it('a daily limit reached in the middle of a crowd sends the first in order and tries the rest again an hour on; a plan without list mail fails them all', async () => {
    const automationId = await crowdAutomation();
    const people = await seedContacts(8);
    await enter(people);
    await sweepAutomationRuns(deps());
    app.clock.advance(DAY_MS);
    await sweepAutomationRuns(deps());
    app.clock.advance(2 * HOUR_MS);
    const usage = await call('GET', '/usage');
    expect(usage.status, usage.text).toBe(200);
    const { day, ceiling } = usage.body.today as { day: string; ceiling: number };
    await deps().db.insert(usageCounters).values({ organizationId: org.organizationId, day, dayRecipients: ceiling - 5, month: `${day.slice(0, 7)}-01`, monthRecipients: ceiling - 5 }).onConflictDoUpdate({ target: usageCounters.organizationId, set: { day, dayRecipients: ceiling - 5 } });
    await sweepAutomationRuns(deps());
    const runs = await deps().db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId)).orderBy(asc(automationRuns.id));
    expect(runs.filter((run) => run.status === 'completed')).toHaveLength(5);
    const waiting = runs.filter((run) => run.status === 'running');
    expect(waiting).toHaveLength(3);
    const inAnHour = new Date(app.clock.now().getTime() + HOUR_MS);
    for (const run of waiting) expect(run).toMatchObject({ stepKey: 'hello', stepState: 'ready', attempts: 1, dueAt: inAnHour, error: expect.stringMatching(/ceiling of 5,000 recipients is reached/) });
    expect(await deps().db.select().from(emails).where(eq(emails.organizationId, org.organizationId))).toHaveLength(5);

    // The next day the three go, and the error is cleared.
    app.clock.advance(DAY_MS);
    await sweepAutomationRuns(deps());
    const after = await deps().db.select().from(automationRuns).where(inArray(automationRuns.id, waiting.map((run) => run.id)));
    for (const run of after) expect(run).toMatchObject({ status: 'completed', error: null, lastEmailId: expect.any(String) });
    expect(await deps().db.select().from(emails).where(eq(emails.organizationId, org.organizationId))).toHaveLength(8);

    // Another crowd, on Free: every run fails at the email, saying why, with its event.
    await deps().db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    const second = await enter(await seedContacts(4, 'free'));
    await sweepAutomationRuns(deps());
    app.clock.advance(DAY_MS);
    await sweepAutomationRuns(deps());
    app.clock.advance(2 * HOUR_MS);
    await sweepAutomationRuns(deps());
    const failed = await deps().db.select().from(automationRuns).where(inArray(automationRuns.id, second));
    for (const run of failed) expect(run).toMatchObject({ status: 'failed', stepKey: 'hello', dueAt: null, error: expect.stringMatching(/paid plan/) });
    expect((await historyOf(second[0]!)).at(-1)).toMatchObject({ seq: 3, key: 'hello', status: 'failed' });
    const failedEvents = await deps().db.select().from(events).where(and(eq(events.organizationId, org.organizationId), eq(events.type, 'automation.run_failed')));
    expect(failedEvents).toHaveLength(4);
    expect(await deps().db.select().from(emails).where(eq(emails.organizationId, org.organizationId))).toHaveLength(8);
  }, 120_000);
});
