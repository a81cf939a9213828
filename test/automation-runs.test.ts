import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, like } from 'drizzle-orm';
import { automationEmails, automationRunMonths, automationRuns, automationRunSteps, contacts, domains, emails, events, organizations, receivedEvents } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { applyAutomationRetention } from '@/server/services/automations/retention';
import { receiveEvent, sweepAutomationRuns } from '@/server/services/automations';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { organizationPrincipal } from '@/server/services/shared/principal';
import { PLANS } from '@/server/services/plans/plan-table';
import { DAY_MS, HOUR_MS } from '@/server/services/shared/time';
import { openToken } from '@/server/services/tracking/tokens';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// The run engine (docs/automations.md, "Runs") under the test clock: runs started by an event, taken
// step by step by the sweep, waiting in delays and for events, branching, sending list mail through
// the admit door exactly once, and ended by a stop.

const PERSON = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

describe('automation runs (real HTTP and SMTP, the test clock)', () => {
  let app: TestApp;
  let mx: MxServer;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    mx = await startMxServer();
    app = await startTestApp({ env: { APP_URL: 'https://mail.eumail.test', SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' } });
  });
  afterAll(async () => {
    await closeOutboundConnections();
    await app.close();
    await mx.close();
  });
  beforeEach(async () => {
    await app.reset();
    mx.messages.length = 0;
    org = await reviewedSendingOrg(app);
    app.dns.a('mx.example.net', '127.0.0.1');
    await app.runtime.deps.db.update(domains).set({ openTracking: true, clickTracking: true }).where(eq(domains.organizationId, org.organizationId));
  });

  const deps = () => app.runtime.deps;
  const call = (method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
  const later = async (ms: number) => {
    app.clock.advance(ms);
    await sweepAutomationRuns(deps());
    await sweepEmailDispatch(deps());
  };
  const send = (event: string, email: string, payload: Record<string, unknown> = {}, mode: 'live' | 'test' = 'live') =>
    receiveEvent(deps(), { ...organizationPrincipal(org.organizationId, '10k'), mode }, { event, contact: { email }, payload });

  async function template(name: string, subject: string): Promise<string> {
    const created = await call('POST', '/templates', { name, subject, html: `<p>${subject}, {{ contact.first_name | default: "friend" }} on {{ plan }}</p><a href="https://example.org/start">Start</a>`, from: 'Acme <hello@acme.example.com>' });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }
  async function contact(email: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await call('POST', '/contacts', { email, first_name: email.split('@')[0], ...extra });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }
  async function automation(body: Record<string, unknown>): Promise<string> {
    const created = await call('POST', '/automations', { status: 'enabled', ...body });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }
  const subjects = () => mx.messages.map((message) => `${message.to}: ${/^Subject: (.*)$/m.exec(message.raw)?.[1]}`).sort();
  const runsOf = (automationId: string) => deps().db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId)).orderBy(asc(automationRuns.createdAt));
  const stepsOf = (runId: string) =>
    deps()
      .db.select({ key: automationRunSteps.key, status: automationRunSteps.status, output: automationRunSteps.output })
      .from(automationRunSteps)
      .where(eq(automationRunSteps.runId, runId))
      .orderBy(asc(automationRunSteps.seq));

  /** Welcome now; after a day, a tip for those who opened it or a reminder for the rest; two days on, the last. */
  async function welcomeOverThreeDays(): Promise<string> {
    const [welcome, tip, reminder, last] = [await template('Welcome', 'Welcome'), await template('Tip', 'A tip'), await template('Reminder', 'Did you see'), await template('Last', 'Last one')];
    return automation({
      name: 'Welcome over three days',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
        { key: 'welcome', type: 'send_email', config: { template: { id: welcome, variables: { plan: { var: 'event.plan' } } } } },
        { key: 'one_day', type: 'delay', config: { duration: '1 day' } },
        { key: 'opened', type: 'condition', config: { type: 'rule', field: 'email.opened', operator: 'eq', value: true } },
        { key: 'tip', type: 'send_email', config: { template: { id: tip, variables: { plan: 'pro' } } } },
        { key: 'reminder', type: 'send_email', config: { template: { id: reminder } } },
        { key: 'two_days', type: 'delay', config: { duration: '2 days' } },
        { key: 'last', type: 'send_email', config: { template: { id: last } } },
      ],
      connections: [
        { from: 'start', to: 'welcome' },
        { from: 'welcome', to: 'one_day' },
        { from: 'one_day', to: 'opened' },
        { from: 'opened', to: 'tip', type: 'condition_met' },
        { from: 'opened', to: 'reminder', type: 'condition_not_met' },
        { from: 'tip', to: 'two_days' },
        { from: 'reminder', to: 'two_days' },
        { from: 'two_days', to: 'last' },
      ],
    });
  }

  it('takes a welcome series over three simulated days, branching on whether the welcome was opened, each email once', async () => {
    const id = await welcomeOverThreeDays();
    await contact('ada@example.net');
    await contact('bob@example.net');
    expect(await send('user.created', 'ada@example.net', { plan: 'team' })).toMatchObject({ runsStarted: 1, waitsEnded: 0 });
    expect(await send('user.created', 'bob@example.net', { plan: 'solo' })).toMatchObject({ runsStarted: 1 });
    await later(0);
    expect(subjects()).toEqual(['bob@example.net: Welcome', 'ada@example.net: Welcome'].sort());
    expect(mx.messages.find((message) => message.to.includes('ada@example.net'))!.raw).toContain('on team');
    const [ada] = (await runsOf(id)).filter((run) => run.contactEmail === 'ada@example.net');
    expect(ada).toMatchObject({ status: 'running', stepKey: 'one_day', stepState: 'waiting' });

    // An hour on, Ada opens her welcome (as a person: not at once, not a proxy); Bob does not.
    await later(HOUR_MS);
    const adaEmail = await deps().db.select({ emailId: automationEmails.emailId }).from(automationEmails).where(and(eq(automationEmails.runId, ada!.id), eq(automationEmails.stepKey, 'welcome')));
    const pixel = await fetch(`${app.url}/t/o/${openToken(deps().encryptionKey, adaEmail[0]!.emailId)}`, { headers: { 'user-agent': PERSON } });
    expect(pixel.status).toBe(200);

    await later(22 * HOUR_MS);
    expect(mx.messages).toHaveLength(2);
    await later(HOUR_MS);
    expect(subjects()).toEqual(['ada@example.net: A tip', 'ada@example.net: Welcome', 'bob@example.net: Did you see', 'bob@example.net: Welcome']);
    await later(DAY_MS);
    expect(mx.messages).toHaveLength(4);
    await later(DAY_MS);
    await later(0);
    expect(subjects()).toEqual([
      'ada@example.net: A tip',
      'ada@example.net: Last one',
      'ada@example.net: Welcome',
      'bob@example.net: Did you see',
      'bob@example.net: Last one',
      'bob@example.net: Welcome',
    ]);
    const runs = await runsOf(id);
    expect(runs.map((run) => run.status)).toEqual(['completed', 'completed']);
    expect((await stepsOf(ada!.id)).map((step) => `${step.key}:${step.status}`)).toEqual([
      'start:completed',
      'welcome:completed',
      'one_day:completed',
      'opened:completed',
      'tip:completed',
      'two_days:completed',
      'last:completed',
    ]);
    // Sent as list mail: one-click unsubscribe, bulk, tagged with the automation.
    const stored = await deps().db.select({ tags: emails.tags, headers: emails.headers }).from(emails);
    expect(stored).toHaveLength(6);
    for (const email of stored) {
      expect(email.tags).toContainEqual({ name: 'automation', value: id });
      expect(Object.keys(email.headers)).toEqual(expect.arrayContaining(['List-Unsubscribe', 'Precedence']));
    }
    // Each run's start and end in the event log, for webhooks.
    const logged = await deps().db.select({ type: events.type, data: events.data }).from(events).where(like(events.type, 'automation.%')).orderBy(asc(events.id));
    expect(logged.map((event) => event.type).sort()).toEqual(['automation.run_completed', 'automation.run_completed', 'automation.run_started', 'automation.run_started']);
    expect(logged.find((event) => event.type === 'automation.run_completed')!.data).toMatchObject({ automationId: id, status: 'completed', mode: 'live', runId: expect.any(String) });
    // The automation at a glance: both runs done, six emails delivered, Ada's welcome opened.
    const figures = await call('GET', `/automations/${id}/figures`);
    expect(figures.status, figures.text).toBe(200);
    expect(figures.body).toEqual({ runs: { running: 0, completed: 2, failed: 0, cancelled: 0 }, atStep: [], emails: { sent: 6, byStatus: { delivered: 6 }, opened: 1, clicked: 0 } });
    // Sweeping again sends nothing more.
    await later(DAY_MS);
    expect(mx.messages).toHaveLength(6);
  });

  it('branches on a click: the contact who clicked the welcome\'s link by hand gets the tip, the other the reminder', async () => {
    const [welcome, tip, reminder] = [await template('Welcome', 'Welcome'), await template('Tip', 'A tip'), await template('Reminder', 'Did you see')];
    const id = await automation({
      name: 'Clicked or not',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
        { key: 'welcome', type: 'send_email', config: { template: { id: welcome } } },
        { key: 'one_day', type: 'delay', config: { duration: '1 day' } },
        { key: 'clicked', type: 'condition', config: { type: 'rule', field: 'email.clicked', operator: 'eq', value: true } },
        { key: 'tip', type: 'send_email', config: { template: { id: tip } } },
        { key: 'reminder', type: 'send_email', config: { template: { id: reminder } } },
      ],
      connections: [
        { from: 'start', to: 'welcome' },
        { from: 'welcome', to: 'one_day' },
        { from: 'one_day', to: 'clicked' },
        { from: 'clicked', to: 'tip', type: 'condition_met' },
        { from: 'clicked', to: 'reminder', type: 'condition_not_met' },
      ],
    });
    await contact('ada@example.net');
    await contact('bob@example.net');
    await send('user.created', 'ada@example.net');
    await send('user.created', 'bob@example.net');
    await later(0);
    expect(subjects()).toEqual(['ada@example.net: Welcome', 'bob@example.net: Welcome']);
    // Two hours on, Bob clicks the link of his welcome (the tracked link as delivered: quoted-printable undone).
    await later(2 * HOUR_MS);
    const bobs = mx.messages.find((message) => message.to.includes('bob@example.net'))!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = /\/t\/c\/[A-Za-z0-9_-]+/.exec(bobs)![0];
    const clicked = await fetch(`${app.url}${link}`, { redirect: 'manual', headers: { 'user-agent': PERSON } });
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get('location')).toBe('https://example.org/start');

    await later(22 * HOUR_MS);
    await later(0);
    expect(subjects()).toEqual(['ada@example.net: Did you see', 'ada@example.net: Welcome', 'bob@example.net: A tip', 'bob@example.net: Welcome']);
    const [adaRun, bobRun] = (await runsOf(id)).sort((a, b) => a.contactEmail.localeCompare(b.contactEmail));
    expect((await stepsOf(bobRun!.id)).find((step) => step.key === 'clicked')).toMatchObject({ status: 'completed', output: { met: true } });
    expect((await stepsOf(adaRun!.id)).find((step) => step.key === 'clicked')).toMatchObject({ status: 'completed', output: { met: false } });
  });

  it('waits for an event: one that passes the filter takes the received branch, the rest time out', async () => {
    const [thanks, nudge] = [await template('Thanks', 'Thanks'), await template('Nudge', 'Verify your domain')];
    const id = await automation({
      name: 'Domain nudge',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
        { key: 'verified', type: 'wait_for_event', config: { event_name: 'site.verified', timeout: '1 day', filter_rule: { type: 'rule', field: 'event.ok', operator: 'eq', value: true } } },
        { key: 'thanks', type: 'send_email', config: { template: { id: thanks } } },
        { key: 'nudge', type: 'send_email', config: { template: { id: nudge } } },
      ],
      connections: [
        { from: 'start', to: 'verified' },
        { from: 'verified', to: 'thanks', type: 'event_received' },
        { from: 'verified', to: 'nudge', type: 'timeout' },
      ],
    });
    for (const name of ['ada', 'bob', 'cy']) await contact(`${name}@example.net`);
    for (const name of ['ada', 'bob', 'cy']) await send('user.created', `${name}@example.net`);
    await later(0);
    expect(mx.messages).toHaveLength(0);

    await later(HOUR_MS);
    expect(await send('site.verified', 'ada@example.net', { ok: true })).toMatchObject({ runsStarted: 0, waitsEnded: 1 });
    // Filtered out: Bob's event does not match, so his run still waits.
    expect(await send('site.verified', 'bob@example.net', { ok: false })).toMatchObject({ waitsEnded: 0 });
    await later(0);
    expect(subjects()).toEqual(['ada@example.net: Thanks']);

    await later(23 * HOUR_MS);
    expect(subjects()).toEqual(['ada@example.net: Thanks', 'bob@example.net: Verify your domain', 'cy@example.net: Verify your domain']);
    const runs = await runsOf(id);
    expect(runs.map((run) => run.status)).toEqual(['completed', 'completed', 'completed']);
    const ada = runs.find((run) => run.contactEmail === 'ada@example.net')!;
    expect((await stepsOf(ada.id)).map((step) => `${step.key}:${step.status}`)).toEqual(['start:completed', 'verified:completed', 'thanks:completed']);
    // A late event ends no wait: the run is over.
    expect(await send('site.verified', 'cy@example.net', { ok: true })).toMatchObject({ waitsEnded: 0 });
  });

  it('a stopped automation ends its runs: a waiting run sends nothing after the stop', async () => {
    const id = await welcomeOverThreeDays();
    await contact('ada@example.net');
    await send('user.created', 'ada@example.net', { plan: 'team' });
    await later(0);
    expect(mx.messages).toHaveLength(1);
    const stopped = await call('POST', `/automations/${id}/stop`);
    expect(stopped.status, stopped.text).toBe(200);
    await later(3 * DAY_MS);
    expect(mx.messages).toHaveLength(1);
    expect((await runsOf(id)).map((run) => [run.status, run.endedReason])).toEqual([['cancelled', 'stopped']]);
    const [cancelled] = await deps().db.select({ data: events.data }).from(events).where(eq(events.type, 'automation.run_cancelled'));
    expect(cancelled!.data).toMatchObject({ automationId: id, email: 'ada@example.net', reason: 'stopped' });
    // Stopped is disabled: a new event starts nothing.
    expect(await send('user.created', 'ada@example.net')).toMatchObject({ runsStarted: 0 });
  });

  it('a contact who unsubscribes leaves the run at its next step; re-entry once starts no second run', async () => {
    const id = await welcomeOverThreeDays();
    const ada = await contact('ada@example.net');
    await send('user.created', 'ada@example.net');
    await later(0);
    const unsubscribed = await call('PATCH', `/contacts/${ada}`, { unsubscribed: true });
    expect(unsubscribed.status, unsubscribed.text).toBe(200);
    await later(3 * DAY_MS);
    expect(mx.messages).toHaveLength(1);
    expect((await runsOf(id)).map((run) => [run.status, run.endedReason])).toEqual([['cancelled', 'contact_unsubscribed']]);

    const onceOnly = await automation({
      name: 'Once',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.upgraded', re_entry: { type: 'once' } } },
        { key: 'mark', type: 'contact_update', config: { first_name: { var: 'event.name' } } },
      ],
      connections: [{ from: 'start', to: 'mark' }],
    });
    await contact('bob@example.net');
    expect(await send('user.upgraded', 'bob@example.net', { name: 'Robert' })).toMatchObject({ runsStarted: 1 });
    expect(await send('user.upgraded', 'bob@example.net', { name: 'Bobby' })).toMatchObject({ runsStarted: 0 });
    await later(0);
    const [bob] = await deps().db.select({ firstName: contacts.firstName }).from(contacts).where(eq(contacts.email, 'bob@example.net'));
    expect(bob!.firstName).toBe('Robert');
    expect((await runsOf(onceOnly)).map((run) => run.status)).toEqual(['completed']);
  });

  it('an event for an address that is no contact is kept and starts nothing', async () => {
    await welcomeOverThreeDays();
    expect(await send('user.created', 'nobody@example.net')).toMatchObject({ contactId: null, runsStarted: 0, waitsEnded: 0 });
  });

  it('erasing an address takes its runs, their history, the events sent for it and their automation.run_* log entries', async () => {
    const id = await welcomeOverThreeDays();
    await contact('ada@example.net');
    await contact('bob@example.net');
    await send('user.created', 'ada@example.net', { plan: 'team' });
    await send('user.created', 'bob@example.net', { plan: 'solo' });
    await later(0);
    const erased = await call('DELETE', `/recipients/${encodeURIComponent('ada@example.net')}/data`);
    expect(erased.status, erased.text).toBe(200);
    expect((await runsOf(id)).map((run) => run.contactEmail)).toEqual(['bob@example.net']);
    const left = await deps().db.select({ email: receivedEvents.email }).from(receivedEvents);
    expect(left).toEqual([{ email: 'bob@example.net' }]);
    const steps = await deps().db.select({ runId: automationRunSteps.runId }).from(automationRunSteps);
    expect(new Set(steps.map((step) => step.runId)).size).toBe(1);
    const logged = await deps().db.select({ data: events.data }).from(events).where(like(events.type, 'automation.%'));
    expect(logged.map((event) => event.data.email)).toEqual(['bob@example.net']);
    const records = await deps().db.select({ contactId: automationEmails.contactId }).from(automationEmails);
    expect(records).toEqual([{ contactId: expect.any(String) }]);
  });

  it('an automation email outlives its run (retention) and its unsubscribe link still works; erasing the address then takes its record', async () => {
    const id = await welcomeOverThreeDays();
    const ada = await contact('ada@example.net');
    await contact('bob@example.net');
    await send('user.created', 'ada@example.net', { plan: 'team' });
    await send('user.created', 'bob@example.net', { plan: 'solo' });
    await later(0);
    await later(DAY_MS);
    await later(2 * DAY_MS);
    expect((await runsOf(id)).map((run) => run.status)).toEqual(['completed', 'completed']);

    // 31 days after they finished, the runs are gone (10k: 30 days); the six email records stay, without their run.
    app.clock.advance(31 * DAY_MS);
    expect(await applyAutomationRetention(deps())).toMatchObject({ runsDeleted: 2, automationEmailsDeleted: 0 });
    expect(await runsOf(id)).toEqual([]);
    expect((await deps().db.select({ runId: automationEmails.runId }).from(automationEmails)).map((row) => row.runId)).toEqual([null, null, null, null, null, null]);
    // Ada's welcome, a month old, still unsubscribes her (its token names the contact; the record pairs it with the email).
    const message = mx.messages.find((one) => one.to.includes('ada@example.net') && one.raw.includes('Subject: Welcome'))!;
    const url = /^List-Unsubscribe: <([^>]+)>/m.exec(message.raw.replace(/\r?\n\s+/g, ' '))![1]!;
    const oneClick = await fetch(url.replace('https://mail.eumail.test', app.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBeLessThan(400);
    expect((await deps().db.select({ unsubscribed: contacts.unsubscribed }).from(contacts).where(eq(contacts.id, ada)))[0]).toEqual({ unsubscribed: true });

    const erased = await call('DELETE', `/recipients/${encodeURIComponent('ada@example.net')}/data`);
    expect(erased.status, erased.text).toBe(200);
    const left = await deps().db.select({ contactId: automationEmails.contactId }).from(automationEmails);
    expect(left).toHaveLength(3);
    expect(left.every((row) => row.contactId !== ada)).toBe(true);
  });

  it('an automation email\'s one-click unsubscribe leaves its topic, else all list mail', async () => {
    const topic = await call('POST', '/topics', { name: 'Tips', default_subscription: 'opt_in' });
    expect(topic.status, topic.text).toBe(201);
    const [tip, last] = [await template('Tip', 'A tip'), await template('Last', 'Last one')];
    const id = await automation({
      name: 'Tips',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
        { key: 'tip', type: 'send_email', config: { template: { id: tip }, topic_id: topic.body.id } },
        { key: 'day', type: 'delay', config: { duration: '1 day' } },
        { key: 'last', type: 'send_email', config: { template: { id: last } } },
      ],
      connections: [
        { from: 'start', to: 'tip' },
        { from: 'tip', to: 'day' },
        { from: 'day', to: 'last' },
      ],
    });
    const ada = await contact('ada@example.net');
    await contact('bob@example.net');
    await send('user.created', 'ada@example.net');
    await send('user.created', 'bob@example.net');
    await later(0);
    expect(subjects()).toEqual(['ada@example.net: A tip', 'bob@example.net: A tip']);
    const unsubscribeUrl = (to: string) => /^List-Unsubscribe: <([^>]+)>/m.exec(mx.messages.find((message) => message.to.includes(to))!.raw.replace(/\r?\n\s+/g, ' '))![1]!;
    const oneClick = (url: string) => fetch(url.replace('https://mail.eumail.test', app.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });

    // Ada leaves the topic the tip was sent under: she stays subscribed to list mail, so her run goes on.
    expect((await oneClick(unsubscribeUrl('ada@example.net'))).status).toBe(200);
    const topics = await call('GET', `/contacts/${ada}/topics`);
    expect(topics.body.data).toContainEqual(expect.objectContaining({ id: topic.body.id, subscription: 'opt_out' }));
    mx.messages.length = 0;
    await later(DAY_MS);
    expect(subjects()).toEqual(['ada@example.net: Last one', 'bob@example.net: Last one']);

    // Bob's last email has no topic: its unsubscribe takes him off all list mail (the contact's global flag).
    expect((await oneClick(unsubscribeUrl('bob@example.net'))).status).toBe(200);
    const [bob] = await deps().db.select({ unsubscribed: contacts.unsubscribed }).from(contacts).where(eq(contacts.email, 'bob@example.net'));
    expect(bob!.unsubscribed).toBe(true);
    expect((await runsOf(id)).map((run) => run.status)).toEqual(['completed', 'completed']);
  });

  it('a run finishes the version it started on: an edit makes a version for new runs only', async () => {
    const [first, second] = [await template('First', 'Version one'), await template('Second', 'Version two')];
    const definition = (templateId: string) => ({
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
        { key: 'day', type: 'delay', config: { duration: '1 day' } },
        { key: 'hello', type: 'send_email', config: { template: { id: templateId } } },
      ],
      connections: [
        { from: 'start', to: 'day' },
        { from: 'day', to: 'hello' },
      ],
    });
    const id = await automation({ name: 'Versions', ...definition(first) });
    await contact('ada@example.net');
    await contact('bob@example.net');
    await send('user.created', 'ada@example.net');
    await later(HOUR_MS);
    const edited = await call('PATCH', `/automations/${id}`, definition(second));
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.version).toBe(2);
    await send('user.created', 'bob@example.net');
    await later(0);
    await later(DAY_MS);
    expect(subjects()).toEqual(['ada@example.net: Version one', 'bob@example.net: Version two']);
    expect((await runsOf(id)).map((run) => [run.contactEmail, run.version, run.status])).toEqual([
      ['ada@example.net', 1, 'completed'],
      ['bob@example.net', 2, 'completed'],
    ]);
  });

  it('a test key\'s event runs in test mode: its emails are simulated and its runs kept apart from live ones', async () => {
    const id = await welcomeOverThreeDays();
    await contact('ada@example.net');
    expect(await send('user.created', 'ada@example.net', { plan: 'team' }, 'test')).toMatchObject({ runsStarted: 1 });
    await later(0);
    // Nothing reaches a mail server; the email is stored in test mode.
    expect(mx.messages).toHaveLength(0);
    const stored = await deps().db.select({ mode: emails.mode }).from(emails);
    expect(stored).toEqual([{ mode: 'test' }]);
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ test: true, stepKey: 'one_day' });
    // A live key's figures count no test run; the test run waits at its delay.
    expect((await call('GET', `/automations/${id}/figures`)).body.runs.running).toBe(0);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const testFigures = await app.request('GET', `/api/automations/${id}/figures`, { key: testKey });
    expect(testFigures.body).toMatchObject({ runs: { running: 1 }, atStep: [{ stepKey: 'one_day', runs: 1 }], emails: { sent: 1 } });
    // A live event for the same contact starts a live run beside it, and ends no test wait.
    expect(await send('user.created', 'ada@example.net', { plan: 'team' })).toMatchObject({ runsStarted: 1 });
    await later(0);
    expect(mx.messages).toHaveLength(1);
    expect((await runsOf(id)).map((one) => one.test)).toEqual([true, false]);
    const [started] = await deps().db.select({ data: events.data }).from(events).where(eq(events.type, 'automation.run_started')).orderBy(asc(events.id));
    expect(started!.data).toMatchObject({ mode: 'test' });
  });

  it('a send step of an organization moved down to Free fails the run, saying why', async () => {
    const id = await welcomeOverThreeDays();
    await contact('ada@example.net');
    await deps().db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    await send('user.created', 'ada@example.net');
    await later(0);
    expect(mx.messages).toHaveLength(0);
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: 'failed', stepKey: 'welcome' });
    expect(run!.error).toMatch(/paid plan/);
    expect((await stepsOf(run!.id)).at(-1)).toMatchObject({ key: 'welcome', status: 'failed' });
  });

  it('starts at most the plan\'s runs a month, and GET /usage shows them beside enabled automations', async () => {
    await welcomeOverThreeDays();
    await contact('ada@example.net');
    await contact('bob@example.net');
    const limit = PLANS['10k'].automationRunsPerMonth;
    expect(limit).toBe(10 * PLANS['10k'].contacts);
    expect(await send('user.created', 'ada@example.net')).toMatchObject({ runsStarted: 1 });
    const month = app.clock.now().toISOString().slice(0, 7);
    await deps().db.update(automationRunMonths).set({ started: limit - 1 }).where(eq(automationRunMonths.organizationId, org.organizationId));
    expect(await send('user.created', 'bob@example.net')).toMatchObject({ runsStarted: 1 });
    // The month is full: the event is kept, and starts nothing.
    expect(await send('user.created', 'ada@example.net')).toMatchObject({ runsStarted: 0 });
    const usage = await call('GET', '/usage');
    expect(usage.body.caps).toMatchObject({ enabledAutomations: { used: 1, limit: 5 }, automationRunsThisMonth: { used: limit, limit } });
    // A new month has room again.
    app.clock.set(new Date(`${month}-01T00:00:00Z`));
    app.clock.advance(40 * DAY_MS);
    expect(await send('user.created', 'ada@example.net')).toMatchObject({ runsStarted: 1 });
  });
});
