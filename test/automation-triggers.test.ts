import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { automationRuns, automationRunSteps, domains, emails } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepAutomationRuns } from '@/server/services/automations';
import { sweepDateTriggers } from '@/server/services/automations/triggers/dates';
import { sweepRuleSegmentTriggers } from '@/server/services/automations/triggers/rule-segments';
import { EMAIL_FEED_LAG_MS, sweepEmailEventTriggers } from '@/server/services/automations/triggers/email-feed';
import { createContactProfileIn } from '@/server/services/contacts/profile-write';
import { sourceOfPrincipal } from '@/server/services/consent/source';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { confirmSubscription } from '@/server/services/double-opt-in/confirm';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { openToken } from '@/server/services/tracking/tokens';
import { organizationPrincipal } from '@/server/services/shared/principal';
import { DAY_MS, HOUR_MS } from '@/server/services/shared/time';
import { uploadImport } from './support/contact-imports';
import { keyFor } from './support/keys';
import { startTestApp, type TestApp } from './support/app';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// The events this service raises start automations (docs/automations.md, "Triggers"): a contact
// created, joining a segment, subscribing to a topic (in the transaction that does it), an email's
// outcome (the feed over the event log) and a date property's day (the daily sweep).

describe('system triggers start runs (real HTTP and SMTP, the test clock)', () => {
  let app: TestApp;
  let mx: MxServer;
  let org: { organizationId: string; apiKey: string; domainId: string };

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
  const call = async (method: string, path: string, body?: unknown, key = org.apiKey) => {
    const response = await app.request(method, `/api${path}`, { key, body });
    expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
    return response.body;
  };
  /** Trigger, then the contact's first name written: a step that shows the run went on past its trigger. */
  async function automation(trigger: Record<string, unknown>, status = 'enabled'): Promise<string> {
    const created = await call('POST', '/automations', {
      name: `On ${String(trigger.event_name)}`,
      status,
      steps: [
        { key: 'start', type: 'trigger', config: trigger },
        { key: 'mark', type: 'contact_update', config: { last_name: 'Reached' } },
      ],
      connections: [{ from: 'start', to: 'mark' }],
    });
    return created.id;
  }
  const runsOf = (automationId: string) => deps().db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId)).orderBy(asc(automationRuns.createdAt));
  const contactOf = async (id: string) => call('GET', `/contacts/${id}`);
  const contact = async (email: string, extra: Record<string, unknown> = {}) => (await call('POST', '/contacts', { email, ...extra })).id as string;

  it('contact.created: a new contact starts a run whose first step is taken by the sweep; an update, a disabled automation and a rolled-back create start nothing', async () => {
    const id = await automation({ event_name: 'contact.created' });
    const off = await automation({ event_name: 'contact.created' }, 'disabled');
    const ada = await contact('ada@example.net', { first_name: 'Ada' });
    expect(await runsOf(id)).toMatchObject([{ contactId: ada, status: 'running', stepKey: 'start', test: false, event: { name: 'contact.created' } }]);
    await sweepAutomationRuns(deps());
    expect((await runsOf(id))[0]!.status).toBe('completed');
    const steps = await deps().db.select({ key: automationRunSteps.key, status: automationRunSteps.status }).from(automationRunSteps).where(eq(automationRunSteps.runId, (await runsOf(id))[0]!.id)).orderBy(asc(automationRunSteps.seq));
    expect(steps).toEqual([{ key: 'start', status: 'completed' }, { key: 'mark', status: 'completed' }]);
    expect(await contactOf(ada)).toMatchObject({ lastName: 'Reached' });

    // Created again (the same address: an update) and changed: no second run.
    await contact('ada@example.net', { first_name: 'Ada L.' });
    await call('PATCH', `/contacts/${ada}`, { first_name: 'Ada' });
    expect(await runsOf(id)).toHaveLength(1);
    expect(await runsOf(off)).toHaveLength(0);

    // A create rolled back starts nothing.
    const principal = organizationPrincipal(org.organizationId, '10k');
    await expect(
      deps().db.transaction(async (tx) => {
        await createContactProfileIn(tx, deps(), principal, { email: 'gone@example.net' }, sourceOfPrincipal(principal));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await runsOf(id)).toHaveLength(1);

    // Every way in: a batch of an audience's contacts, an unsubscribed one left out.
    const segment = (await call('POST', '/segments', { name: 'Batch' })).id;
    await call('POST', `/audiences/${segment}/contacts/batch`, { contacts: [{ email: 'bob@example.net' }, { email: 'cy@example.net', unsubscribed: true }] });
    expect((await runsOf(id)).map((run) => run.contactEmail).sort()).toEqual(['ada@example.net', 'bob@example.net']);
  });

  it('contact.added_to_segment: only the segment the trigger names, once per join', async () => {
    const [vip, other] = [(await call('POST', '/segments', { name: 'VIP' })).id, (await call('POST', '/segments', { name: 'Other' })).id];
    const id = await automation({ event_name: 'contact.added_to_segment', segment_id: vip });
    const ada = await contact('ada@example.net');
    await call('POST', `/contacts/${ada}/segments/${other}`);
    expect(await runsOf(id)).toHaveLength(0);
    await call('POST', `/contacts/${ada}/segments/${vip}`);
    await call('POST', `/contacts/${ada}/segments/${vip}`);
    expect(await runsOf(id)).toMatchObject([{ contactId: ada, event: { name: 'contact.added_to_segment', payload: { segment_id: vip } } }]);
    // Joined with the contact's create, and through the audience's routes.
    await contact('bob@example.net', { segments: [{ id: vip }] });
    await call('POST', `/audiences/${vip}/contacts`, { email: 'cy@example.net' });
    await call('POST', `/audiences/${other}/contacts`, { email: 'dee@example.net' });
    expect((await runsOf(id)).map((run) => run.contactEmail).sort()).toEqual(['ada@example.net', 'bob@example.net', 'cy@example.net']);
    await sweepAutomationRuns(deps());
    expect((await runsOf(id)).map((run) => run.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('contact.added_to_segment on a rule segment: the contacts that come to match, found by the sweep or by a change of the rules', async () => {
    await call('POST', '/contact-properties', { key: 'plan', type: 'string' });
    await contact('ada@example.net', { properties: { plan: 'pro' } });
    const pros = (await call('POST', '/segments', { name: 'Pro', rules: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } })).id;
    const id = await automation({ event_name: 'contact.added_to_segment', segment_id: pros });
    // Ada was a member before the automation: nothing starts for her. Bob comes to match; Cy does not.
    const bob = await contact('bob@example.net', { properties: { plan: 'free' } });
    await contact('cy@example.net', { properties: { plan: 'free' } });
    expect(await sweepRuleSegmentTriggers(deps())).toBe(0);
    await call('PATCH', `/contacts/${bob}`, { properties: { plan: 'pro' } });
    expect(await runsOf(id)).toHaveLength(0);
    expect(await sweepRuleSegmentTriggers(deps())).toBe(1);
    expect(await runsOf(id)).toMatchObject([{ contactId: bob, test: false, event: { name: 'contact.added_to_segment', payload: { segment_id: pros } } }]);
    // Swept again: Bob is a member already, nothing more.
    expect(await sweepRuleSegmentTriggers(deps())).toBe(0);
    // New rules that take Cy in start hers in the request that changes them.
    const changed = await call('PATCH', `/segments/${pros}`, { rules: { match: 'any', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }, { type: 'property', key: 'plan', operator: 'equals', value: 'free' }] } });
    expect(changed.contactCount).toBe(3);
    expect((await runsOf(id)).map((run) => run.contactEmail)).toEqual(['bob@example.net', 'cy@example.net']);
    // A disabled automation's segment is not swept: Dee, who comes to match after, starts nothing.
    await call('PATCH', `/automations/${id}`, { status: 'disabled' });
    await contact('dee@example.net', { properties: { plan: 'pro' } });
    expect(await sweepRuleSegmentTriggers(deps())).toBe(0);
    expect(await runsOf(id)).toHaveLength(2);
  });

  it('contact.topic_subscribed: only into the topic it names, and only a change into it', async () => {
    const news = (await call('POST', '/topics', { name: 'News', default_subscription: 'opt_out' })).id;
    const offers = (await call('POST', '/topics', { name: 'Offers', default_subscription: 'opt_out' })).id;
    const id = await automation({ event_name: 'contact.topic_subscribed', topic_id: news });
    const ada = await contact('ada@example.net');
    await call('PATCH', `/contacts/${ada}/topics`, { topics: [{ id: offers, subscription: 'opt_in' }] });
    expect(await runsOf(id)).toHaveLength(0);
    await call('PATCH', `/contacts/${ada}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] });
    // Already in: no change, no run; out and in again: a second run (no re-entry rule).
    await call('PATCH', `/contacts/${ada}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] });
    expect(await runsOf(id)).toHaveLength(1);
    await call('PATCH', `/contacts/${ada}/topics`, { topics: [{ id: news, subscription: 'opt_out' }] });
    await call('PATCH', `/contacts/${ada}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] });
    expect((await runsOf(id)).map((run) => run.event.payload)).toEqual([{ topic_id: news }, { topic_id: news }]);
  });

  it('an import starts the runs of its batch: contacts created subscribed, joined to the segment, into an opt-out topic', async () => {
    const vip = (await call('POST', '/segments', { name: 'VIP' })).id;
    const news = (await call('POST', '/topics', { name: 'News', default_subscription: 'opt_out' })).id;
    const created = await automation({ event_name: 'contact.created' });
    const joined = await automation({ event_name: 'contact.added_to_segment', segment_id: vip });
    const subscribed = await automation({ event_name: 'contact.topic_subscribed', topic_id: news });
    await contact('ada@example.net');
    const upload = await uploadImport(app, org.apiKey, 'email,unsubscribed\nada@example.net,\nbob@example.net,\ncy@example.net,true\n', { segments: [vip], topics: [{ id: news, subscription: 'opt_in' }], column_map: { email: 'email', unsubscribed: 'unsubscribed' } });
    expect(upload.status, upload.text).toBe(202);
    for (let turn = 0; turn < 20 && (await sweepContactImports(deps())).outcomes.more; turn += 1);
    const emailsOf = async (id: string) => (await runsOf(id)).map((run) => run.contactEmail).sort();
    expect(await emailsOf(created)).toEqual(['ada@example.net', 'bob@example.net']);
    // Ada is left as she was (on_conflict skip, the default); Cy, unsubscribed from everything, is not created for automations but joins (his runs end at their first step).
    expect(await emailsOf(joined)).toEqual(['bob@example.net', 'cy@example.net']);
    expect(await emailsOf(subscribed)).toEqual(['bob@example.net', 'cy@example.net']);
    await sweepAutomationRuns(deps());
    expect((await runsOf(joined)).map((run) => [run.contactEmail, run.status, run.endedReason]).sort()).toEqual([
      ['bob@example.net', 'completed', null],
      ['cy@example.net', 'cancelled', 'contact_unsubscribed'],
    ]);
  });

  it('a double opt-in contact is created for automations when it confirms, and joins its segment then', async () => {
    const vip = (await call('POST', '/segments', { name: 'VIP' })).id;
    const created = await automation({ event_name: 'contact.created' });
    const joined = await automation({ event_name: 'contact.added_to_segment', segment_id: vip });
    const asked = await call('POST', '/contacts', { email: 'ada@example.net', double_opt_in: true, confirmation: { from: 'Acme <hello@acme.example.com>' }, segments: [{ id: vip }] });
    expect(asked.pending).toBe(true);
    expect([...(await runsOf(created)), ...(await runsOf(joined))]).toHaveLength(0);
    const [stored] = await deps().db.select({ text: emails.text }).from(emails).where(eq(emails.organizationId, org.organizationId));
    const token = /\/confirm-subscription\/([A-Za-z0-9_-]{43})/.exec(stored!.text ?? '')![1]!;
    expect((await confirmSubscription(deps(), token, { clientAddress: null, userAgent: null })).state).toBe('confirmed');
    expect((await runsOf(created)).map((run) => run.contactId)).toEqual([asked.id]);
    expect((await runsOf(joined)).map((run) => run.contactId)).toEqual([asked.id]);
  });

  async function sendTo(to: string, tags: Array<{ name: string; value: string }>, key = org.apiKey): Promise<string> {
    return (await call('POST', '/emails', { from: 'Acme <hello@acme.example.com>', to, subject: 'Hello', html: '<p>Hi</p>', tags }, key)).id;
  }
  const feed = async () => {
    app.clock.advance(EMAIL_FEED_LAG_MS);
    return sweepEmailEventTriggers(deps());
  };

  it('email.delivered: the feed starts a run per delivered email carrying the tag, once however often it sweeps; test mail starts test runs', async () => {
    const id = await automation({ event_name: 'email.delivered', tag: { name: 'kind', value: 'welcome' } });
    const ada = await contact('ada@example.net');
    await contact('bob@example.net');
    await sendTo('ada@example.net', [{ name: 'kind', value: 'welcome' }]);
    await sendTo('bob@example.net', [{ name: 'kind', value: 'receipt' }]);
    await sendTo('nobody@example.net', [{ name: 'kind', value: 'welcome' }]);
    await sweepEmailDispatch(deps());
    expect(mx.messages).toHaveLength(3);
    // Younger than the lag: not read yet.
    expect(await sweepEmailEventTriggers(deps())).toBe(0);
    expect(await feed()).toBe(1);
    expect(await feed()).toBe(0);
    expect(await sweepEmailEventTriggers(deps())).toBe(0);
    expect(await runsOf(id)).toMatchObject([{ contactId: ada, test: false, event: { name: 'email.delivered', payload: { tags: { kind: 'welcome' } } } }]);
    await sweepAutomationRuns(deps());
    expect((await runsOf(id))[0]!.status).toBe('completed');

    // A test key's email: a test run.
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    await sendTo('ada@example.net', [{ name: 'kind', value: 'welcome' }], testKey);
    for (let turn = 0; turn < 5; turn += 1) {
      app.clock.advance(60_000);
      await sweepEmailDispatch(deps());
    }
    await feed();
    expect((await runsOf(id)).map((run) => run.test)).toEqual([false, true]);
  });

  it('email.opened: an open by a person starts a run, one by a machine does not', async () => {
    const id = await automation({ event_name: 'email.opened' });
    await contact('ada@example.net');
    const emailId = await sendTo('ada@example.net', []);
    await sweepEmailDispatch(deps());
    app.clock.advance(HOUR_MS);
    const pixel = (userAgent: string) => fetch(`${app.url}/t/o/${openToken(deps().encryptionKey, emailId)}`, { headers: { 'user-agent': userAgent } });
    expect((await pixel('Mozilla/5.0')).status).toBe(200);
    expect(await feed()).toBe(0);
    expect((await pixel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148')).status).toBe(200);
    expect(await feed()).toBe(1);
    expect(await runsOf(id)).toMatchObject([{ event: { name: 'email.opened', payload: { email_id: emailId } } }]);
  });

  it('email events of an organization with no listening automation are not read; a feed started later does not read the backlog', async () => {
    await contact('ada@example.net');
    await sendTo('ada@example.net', []);
    await sweepEmailDispatch(deps());
    expect(await feed()).toBe(0);
    const id = await automation({ event_name: 'email.delivered' });
    app.clock.advance(1_000);
    expect(await feed()).toBe(0);
    await sendTo('ada@example.net', []);
    await sweepEmailDispatch(deps());
    expect(await feed()).toBe(1);
    expect(await runsOf(id)).toHaveLength(1);
    // Disabled: the feed ends; enabled again, it starts from then.
    await call('PATCH', `/automations/${id}`, { status: 'disabled' });
    expect(await feed()).toBe(0);
    await sendTo('ada@example.net', []);
    await sweepEmailDispatch(deps());
    await feed();
    app.clock.advance(1_000);
    await call('PATCH', `/automations/${id}`, { status: 'enabled' });
    expect(await feed()).toBe(0);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('contact.date_reached: the contacts whose day it is, once a day however often it sweeps, every year with yearly', async () => {
    await call('POST', '/contact-properties', { key: 'birthday', type: 'date' });
    await call('POST', '/contact-properties', { key: 'renewal', type: 'date' });
    const today = app.clock.now().toISOString().slice(0, 10);
    const inDays = (days: number) => new Date(app.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);
    const birthdays = await automation({ event_name: 'contact.date_reached', property: 'birthday', yearly: true });
    const renewals = await automation({ event_name: 'contact.date_reached', property: 'renewal', offset_days: -3 });
    const ada = await contact('ada@example.net', { properties: { birthday: `1990-${today.slice(5)}` } });
    await contact('bob@example.net', { properties: { birthday: `1990-${inDays(1).slice(5)}`, renewal: inDays(5) } });
    const cy = await contact('cy@example.net', { properties: { renewal: inDays(3) } });
    await contact('dee@example.net', { properties: { birthday: `1991-${today.slice(5)}` }, unsubscribed: true });

    expect(await sweepDateTriggers(deps())).toBe(2);
    expect(await sweepDateTriggers(deps())).toBe(0);
    expect((await runsOf(birthdays)).map((run) => run.contactId)).toEqual([ada]);
    expect((await runsOf(renewals)).map((run) => run.contactId)).toEqual([cy]);
    expect((await runsOf(birthdays))[0]!.event).toEqual({ name: 'contact.date_reached', payload: { property: 'birthday', date: today } });
    await sweepAutomationRuns(deps());
    expect((await runsOf(birthdays))[0]!.status).toBe('completed');

    // The next day: Bob's birthday only; a year on: Ada's again.
    app.clock.advance(DAY_MS);
    expect(await sweepDateTriggers(deps())).toBe(1);
    app.clock.advance(364 * DAY_MS);
    await sweepDateTriggers(deps());
    expect((await runsOf(birthdays)).length).toBeGreaterThanOrEqual(3);
    expect((await runsOf(renewals)).map((run) => run.contactId)).toEqual([cy]);
  });
});
