import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { audienceMemberships, auditEvents, consentEntries, contacts, domains, emails } from '@/db/schema';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { declareConsentSource } from '@/server/services/consent/source';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { DAY_MS } from '@/server/services/shared/time';
import { runSunset, SUNSET_BATCH, sunsetAudience } from '@/server/services/sunset/run';
import { clickToken, openToken } from '@/server/services/tracking/tokens';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// Sunset by human engagement (docs/audiences.md, "Sunset"): the daily run under the test clock, the
// broadcasts that skip sunset members, the lifts (a person's open or click, a new opt-in, the
// setting raised or removed), their consent-ledger entries, the preview, and the refusals.

const UA = {
  // A person reading (tracking/machine.ts takes neither for a machine).
  iphoneMail: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  // Machines: Apple's privacy protection and Gmail's image proxy.
  appleMpp: 'Mozilla/5.0',
  gmailProxy: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
};
const LINK = 'https://shop.example.org/offer';
const HTML = `<p>Hello {{ contact.first_name | default: "there" }}</p><p><a href="${LINK}">Offer</a> <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>`;

describe('sunset by human engagement (real HTTP, the test clock)', () => {
  let app: TestApp;
  let mx: MxServer;
  let org: { organizationId: string; apiKey: string };

  beforeAll(async () => {
    mx = await startMxServer();
    app = await startTestApp({
      env: { APP_URL: 'https://mail.eumail.test', SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' },
    });
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

  const db = () => app.runtime.deps.db;
  const call = (method: string, path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });
  const later = (days: number) => app.clock.advance(days * DAY_MS);

  async function audienceWith(name: string, addresses: string[], body: Record<string, unknown> = {}): Promise<{ id: string; contact: Record<string, string> }> {
    const created = await call('POST', '/audiences', { name, ...body });
    expect(created.status, created.text).toBe(201);
    const contact: Record<string, string> = {};
    for (const email of addresses) contact[email.split('@')[0]!] = await join(created.body.id, email);
    return { id: created.body.id, contact };
  }
  async function join(audienceId: string, email: string): Promise<string> {
    const added = await call('POST', `/audiences/${audienceId}/contacts`, { email });
    expect(added.status, added.text).toBe(201);
    return added.body.id;
  }

  /** A broadcast to the audience, sent and delivered to the loopback MX: each recipient's email id by address. */
  async function broadcast(audienceId: string, subject: string, extra: Record<string, unknown> = {}): Promise<{ id: string; recipients: number; emailOf: Map<string, string> }> {
    const created = await call('POST', '/broadcasts', { audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject, html: HTML, ...extra });
    expect(created.status, created.text).toBe(201);
    expect((await call('POST', `/broadcasts/${created.body.id}/send`)).status).toBe(200);
    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
    await sweepEmailDispatch(app.runtime.deps);
    const rows = await db().select({ id: emails.id, to: emails.to, status: emails.status }).from(emails).where(eq(emails.broadcastId, created.body.id));
    for (const row of rows) expect(row.status).toBe('delivered');
    const read = await call('GET', `/broadcasts/${created.body.id}`);
    // Past the seconds after delivery in which an open or click is taken for a gateway's.
    app.clock.advance(60_000);
    return { id: created.body.id, recipients: read.body.counts.recipients, emailOf: new Map(rows.map((row) => [row.to[0]!, row.id])) };
  }
  const hit = async (path: string, userAgent: string) => {
    const response = await fetch(`${app.url}${path}`, { redirect: 'manual', headers: { 'user-agent': userAgent } });
    await response.arrayBuffer();
    expect(response.status).toBeLessThan(400);
  };
  const open = (emailId: string, userAgent: string) => hit(`/t/o/${openToken(app.runtime.deps.encryptionKey, emailId)}`, userAgent);
  const click = (emailId: string, userAgent: string) => hit(`/t/c/${clickToken(app.runtime.deps.encryptionKey, emailId, 0)}`, userAgent);

  const preview = async (audienceId: string, months?: number) => {
    const response = await call('GET', `/audiences/${audienceId}/sunset-preview${months === undefined ? '' : `?months=${months}`}`);
    expect(response.status, response.text).toBe(200);
    return response.body as { months: number; subscribed: number; wouldSunset: number; sunsetNow: number; reengagedNow: number };
  };
  const sunsetIn = async (audienceId: string) =>
    (
      await db()
        .select({ email: contacts.email })
        .from(audienceMemberships)
        .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
        .where(and(eq(audienceMemberships.audienceId, audienceId), isNotNull(audienceMemberships.sunsetAt)))
        .orderBy(asc(contacts.email))
    ).map((row) => row.email);
  /** The contact's sunset moves in the ledger, oldest first. */
  const sunsetLedger = (contactId: string) =>
    db()
      .select({ action: consentEntries.action, via: consentEntries.via, audienceId: consentEntries.audienceId, createdAt: consentEntries.createdAt })
      .from(consentEntries)
      .where(and(eq(consentEntries.contactId, contactId), inArray(consentEntries.action, ['sunset', 'sunset_lifted'])))
      .orderBy(asc(consentEntries.id));

  it('sets sunset whoever no person opened or clicked for N months (the never-engaged from joining), as the preview counted; broadcasts skip them', async () => {
    const start = app.clock.now();
    const news = await audienceWith('News', ['opener@example.net', 'clicker@example.net', 'machine@example.net', 'never@example.net']);
    const first = await broadcast(news.id, 'Spring');
    // Only Apple's proxy ever opens machine@'s mail.
    await open(first.emailOf.get('machine@example.net')!, UA.appleMpp);

    later(122);
    const late = await join(news.id, 'late@example.net');
    const second = await broadcast(news.id, 'Summer');
    expect(second.recipients).toBe(5);
    await open(second.emailOf.get('opener@example.net')!, UA.iphoneMail);
    await click(second.emailOf.get('clicker@example.net')!, UA.chromeWindows);
    await open(second.emailOf.get('machine@example.net')!, UA.appleMpp);
    await open(second.emailOf.get('machine@example.net')!, UA.gmailProxy);
    const summary = await db().select({ email: contacts.email, opened: contacts.lastOpenedAt, clicked: contacts.lastClickedAt }).from(contacts).orderBy(asc(contacts.email));
    // The engagement summary counts people only: machine@ has opens, all of them by machines.
    expect(summary.find((row) => row.email === 'machine@example.net')).toEqual({ email: 'machine@example.net', opened: null, clicked: null });
    expect(summary.find((row) => row.email === 'opener@example.net')!.opened).not.toBeNull();
    expect(summary.find((row) => row.email === 'clicker@example.net')!.clicked).not.toBeNull();

    // Seven months after the start: machine@ and never@ joined then and no person has shown since;
    // late@ joined four months in and is measured from then.
    later(92);
    expect(await preview(news.id, 6)).toEqual({ months: 6, subscribed: 5, wouldSunset: 2, sunsetNow: 0, reengagedNow: 0 });
    expect(await preview(news.id, 1)).toMatchObject({ wouldSunset: 5 });
    // Without months: the audience's own setting, else 12.
    expect(await preview(news.id)).toMatchObject({ months: 12, wouldSunset: 0 });
    // Off: the run leaves the audience alone.
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 0, sunset: 0, lifted: 0, reengaged: 0 });

    const turnedOn = await call('PATCH', `/segments/${news.id}`, { sunset_after_months: 6 });
    expect(turnedOn.status, turnedOn.text).toBe(200);
    expect(turnedOn.body.sunsetAfterMonths).toBe(6);
    expect((await call('GET', `/audiences/${news.id}`)).body).toMatchObject({ id: news.id, sunsetAfterMonths: 6 });
    expect((await call('GET', '/audiences')).body.data[0]).toMatchObject({ id: news.id, sunsetAfterMonths: 6 });
    expect(await preview(news.id)).toMatchObject({ months: 6, wouldSunset: 2 });

    const runAt = app.clock.now();
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 2, lifted: 0, reengaged: 0 });
    expect(await sunsetIn(news.id)).toEqual(['machine@example.net', 'never@example.net']);
    expect(await preview(news.id, 6)).toEqual({ months: 6, subscribed: 5, wouldSunset: 2, sunsetNow: 2, reengagedNow: 0 });
    for (const name of ['machine', 'never']) expect(await sunsetLedger(news.contact[name]!)).toEqual([{ action: 'sunset', via: 'sunset', audienceId: news.id, createdAt: runAt }]);
    for (const id of [news.contact.opener!, news.contact.clicker!, late]) expect(await sunsetLedger(id)).toEqual([]);
    // The next day's run has nothing left to do.
    later(1);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 0, lifted: 0, reengaged: 0 });

    // The preflight of a draft to the audience counts the three receiving members only.
    const draft = await call('POST', '/broadcasts', { audience_id: news.id, from: 'Acme News <news@acme.example.com>', subject: 'Draft', html: HTML });
    const checks = (await call('GET', `/broadcasts/${draft.body.id}/preflight`)).body.checks as Array<{ id: string }>;
    expect(JSON.stringify(checks.find((check) => check.id === 'audience_quality'))).toContain('Of the 3 subscribed contacts of \\"News\\"');
    expect((await call('DELETE', `/broadcasts/${draft.body.id}`)).status).toBe(200);

    // A broadcast now goes to the three others only, and its count said so from the start.
    const third = await broadcast(news.id, 'Autumn');
    expect(third.recipients).toBe(3);
    expect([...third.emailOf.keys()].sort()).toEqual(['clicker@example.net', 'late@example.net', 'opener@example.net']);
    expect(app.clock.now().getTime() - start.getTime()).toBeGreaterThan(200 * DAY_MS);
  });

  it('lifts a sunset at a person\'s open or click, not a machine\'s, and at a new opt-in; each lift is in the ledger', async () => {
    const news = await audienceWith('News', ['ada@example.net', 'bob@example.net', 'cy@example.net'], { sunset_after_months: 3 });
    const sent = await broadcast(news.id, 'Hello');
    later(100);
    await runSunset(app.runtime.deps);
    expect(await sunsetIn(news.id)).toEqual(['ada@example.net', 'bob@example.net', 'cy@example.net']);

    // A proxy's fetch of the old message lifts nothing; Ada herself opening it does.
    await open(sent.emailOf.get('ada@example.net')!, UA.appleMpp);
    expect(await sunsetIn(news.id)).toEqual(['ada@example.net', 'bob@example.net', 'cy@example.net']);
    app.clock.advance(90_000);
    const openedAt = app.clock.now();
    await open(sent.emailOf.get('ada@example.net')!, UA.iphoneMail);
    // Bob's click (a person's browser, long after delivery) lifts his.
    await click(sent.emailOf.get('bob@example.net')!, UA.chromeWindows);
    expect(await sunsetIn(news.id)).toEqual(['cy@example.net']);
    expect((await sunsetLedger(news.contact.ada!)).map(({ action, via }) => [action, via])).toEqual([
      ['sunset', 'sunset'],
      ['sunset_lifted', 'sunset'],
    ]);
    expect((await sunsetLedger(news.contact.ada!))[1]!.createdAt).toEqual(openedAt);
    expect((await sunsetLedger(news.contact.bob!)).map(({ action }) => action)).toEqual(['sunset', 'sunset_lifted']);

    // Cy opts in again: unsubscribed here, then subscribed again (the customer's PATCH).
    expect((await call('PATCH', `/audiences/${news.id}/contacts/${news.contact.cy}`, { subscribed: false })).status).toBe(200);
    expect(await sunsetIn(news.id)).toEqual(['cy@example.net']);
    expect((await call('PATCH', `/audiences/${news.id}/contacts/${news.contact.cy}`, { subscribed: true })).status).toBe(200);
    expect(await sunsetIn(news.id)).toEqual([]);
    const [optIn] = await db()
      .select({ via: consentEntries.via })
      .from(consentEntries)
      .where(and(eq(consentEntries.contactId, news.contact.cy!), eq(consentEntries.action, 'subscribed'), eq(consentEntries.audienceId, news.id)))
      .orderBy(asc(consentEntries.id))
      .offset(1);
    // The lift says what the opt-in came through, as the opt-in's own entry does.
    expect((await sunsetLedger(news.contact.cy!)).map(({ action, via }) => [action, via])).toEqual([
      ['sunset', 'sunset'],
      ['sunset_lifted', optIn!.via],
    ]);

    // The lifted are measured again from the open, the click or the opt-in: none is due the next day.
    later(1);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 0, lifted: 0, reengaged: 0 });
    // Three months of silence later, they are.
    later(95);
    expect(await runSunset(app.runtime.deps)).toMatchObject({ sunset: 3 });
  });

  it('lifts in every audience at a re-subscription of the whole contact, with the source the transaction declared', async () => {
    const news = await audienceWith('News', ['ada@example.net'], { sunset_after_months: 2 });
    const offers = await audienceWith('Offers', [], { sunset_after_months: 2 });
    await join(offers.id, 'ada@example.net');
    const ada = news.contact.ada!;
    later(70);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 2, sunset: 2, lifted: 0, reengaged: 0 });
    expect((await call('PATCH', `/contacts/${ada}`, { unsubscribed: true })).status).toBe(200);
    // A sign-up form's transaction (issue 37's forms) declares itself before it writes.
    await db().transaction(async (tx) => {
      await declareConsentSource(tx, { via: 'form', clientAddress: '198.51.100.0', userAgent: UA.iphoneMail });
      await tx.update(contacts).set({ unsubscribed: false, updatedAt: app.clock.now() }).where(eq(contacts.id, ada));
    });
    expect(await sunsetIn(news.id)).toEqual([]);
    expect(await sunsetIn(offers.id)).toEqual([]);
    const lifts = (await sunsetLedger(ada)).filter((entry) => entry.action === 'sunset_lifted');
    expect(lifts.map(({ via, audienceId }) => [via, audienceId]).sort()).toEqual([
      ['form', news.id],
      ['form', offers.id],
    ].sort());
  });

  it('lifts the sunset members a raised setting no longer covers, and all of them when it is turned off', async () => {
    const news = await audienceWith('News', ['ada@example.net'], { sunset_after_months: 6 });
    later(200);
    const bob = await join(news.id, 'bob@example.net');
    later(100);
    // Ada: 300 days of silence; Bob: 100.
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 1, lifted: 0, reengaged: 0 });
    expect(await preview(news.id, 1)).toMatchObject({ wouldSunset: 2, sunsetNow: 1, reengagedNow: 0 });
    expect(await preview(news.id, 12)).toMatchObject({ wouldSunset: 0, sunsetNow: 1, reengagedNow: 0 });
    expect((await call('PATCH', `/segments/${news.id}`, { sunset_after_months: 12 })).status).toBe(200);
    // The change woke its audience's run: here that run is called as Inngest would call it.
    expect(await sunsetAudience(app.runtime.deps, news.id)).toEqual({ sunset: 0, lifted: 1, reengaged: 0 });
    expect((await call('PATCH', `/segments/${news.id}`, { sunset_after_months: 3 })).status).toBe(200);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 2, lifted: 0, reengaged: 0 });
    const off = await call('PATCH', `/segments/${news.id}`, { sunset_after_months: null });
    expect(off.body.sunsetAfterMonths).toBeNull();
    // Off, the audience is still looked at while it has sunset members, and they all come back.
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 0, lifted: 2, reengaged: 0 });
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 0, sunset: 0, lifted: 0, reengaged: 0 });
    expect((await sunsetLedger(bob)).map(({ action, via }) => [action, via])).toEqual([
      ['sunset', 'sunset'],
      ['sunset_lifted', 'sunset'],
    ]);
    // Who changed the setting is in the audit log; the ledger's lifts name the run.
    const [changed] = await db().select({ details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.action, 'audience.updated')).orderBy(desc(auditEvents.id)).limit(1);
    expect(changed!.details).toEqual({ fields: ['sunsetAfterMonths'], sunsetAfterMonths: { from: 3, to: null } });
  });

  it('skips sunset members of a broadcast under a topic too', async () => {
    const news = await audienceWith('News', ['ada@example.net', 'bob@example.net'], { sunset_after_months: 1 });
    const topic = await call('POST', '/topics', { name: 'Product news', default_subscription: 'opt_in' });
    expect(topic.status, topic.text).toBe(201);
    later(40);
    // Bob subscribes again (a new opt-in): only Ada stays sunset.
    await call('PATCH', `/audiences/${news.id}/contacts/${news.contact.bob}`, { subscribed: false });
    await call('PATCH', `/audiences/${news.id}/contacts/${news.contact.bob}`, { subscribed: true });
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 1, lifted: 0, reengaged: 0 });
    const sent = await broadcast(news.id, 'Under a topic', { topic_id: topic.body.id });
    expect(sent.recipients).toBe(1);
    expect([...sent.emailOf.keys()]).toEqual(['bob@example.net']);
  });

  it('keeps a rule segment\'s sunset members sunset across its evaluations; one that leaves and comes back is measured afresh', async () => {
    expect((await call('POST', '/contact-properties', { key: 'plan', type: 'string' })).status).toBe(201);
    for (const email of ['ada@example.net', 'bob@example.net']) expect((await call('POST', '/contacts', { email, properties: { plan: 'pro' } })).status).toBe(201);
    const pro = await call('POST', '/segments', { name: 'Pro', rules: { conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] }, sunset_after_months: 2 });
    expect(pro.body).toMatchObject({ contactCount: 2, sunsetAfterMonths: 2 });
    later(70);
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: 2, lifted: 0, reengaged: 0 });
    // Evaluated again (a rename of its rules that matches the same contacts): still sunset.
    expect((await call('PATCH', `/segments/${pro.body.id}`, { rules: { match: 'any', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } })).status).toBe(200);
    expect(await sunsetIn(pro.body.id)).toEqual(['ada@example.net', 'bob@example.net']);
    // Bob stops matching and leaves with his sunset; matching again, he joins afresh.
    await call('PATCH', '/contacts/bob%40example.net', { properties: { plan: 'free' } });
    await call('PATCH', `/segments/${pro.body.id}`, { rules: { conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } });
    await call('PATCH', '/contacts/bob%40example.net', { properties: { plan: 'pro' } });
    await call('PATCH', `/segments/${pro.body.id}`, { rules: { conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } });
    expect(await sunsetIn(pro.body.id)).toEqual(['ada@example.net']);
    expect(await preview(pro.body.id)).toMatchObject({ subscribed: 2, wouldSunset: 1, sunsetNow: 1, reengagedNow: 0 });
  });

  it('sets a large audience sunset in batches, each its own statement', async () => {
    const count = SUNSET_BATCH * 2 + 17;
    const created = await call('POST', '/audiences', { name: 'Everyone', sunset_after_months: 1 });
    for (let from = 0; from < count; from += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({ email: `person${from + i}@example.net` }));
      expect((await call('POST', `/audiences/${created.body.id}/contacts/batch`, { contacts: rows })).status).toBe(200);
    }
    later(40);
    expect(await preview(created.body.id)).toMatchObject({ subscribed: count, wouldSunset: count, sunsetNow: 0, reengagedNow: 0 });
    expect(await runSunset(app.runtime.deps)).toEqual({ audiences: 1, sunset: count, lifted: 0, reengaged: 0 });
    expect(await preview(created.body.id)).toMatchObject({ wouldSunset: count, sunsetNow: count });
    const entries = await db().select({ id: consentEntries.id }).from(consentEntries).where(eq(consentEntries.action, 'sunset'));
    expect(entries).toHaveLength(count);
  });

  it('refuses months out of range, another organization\'s audience and a test key\'s change', async () => {
    for (const months of [0, 37, 1.5, true, 'six']) {
      const refused = await call('POST', '/audiences', { name: 'News', sunset_after_months: months });
      expect(refused.status, JSON.stringify(months)).toBe(400);
      expect(refused.body).toEqual({ error: expect.stringContaining('sunset_after_months'), code: 'VALIDATION_ERROR' });
    }
    const news = await call('POST', '/audiences', { name: 'News', sunset_after_months: 36 });
    expect(news.status).toBe(201);
    expect(news.body).toMatchObject({ name: 'News', sunsetAfterMonths: 36 });
    const segment = await call('POST', '/segments', { name: 'Customers', sunset_after_months: 1 });
    expect(segment.body).toMatchObject({ sunsetAfterMonths: 1 });
    expect((await call('POST', '/segments', { name: 'Customers', sunset_after_months: 40 })).status).toBe(400);
    expect((await call('PATCH', `/segments/${news.body.id}`, { sunset_after_months: -1 })).status).toBe(400);
    for (const months of ['0', '37', 'abc', '2.5']) {
      const refused = await call('GET', `/audiences/${news.body.id}/sunset-preview?months=${months}`);
      expect(refused.status, months).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
    }

    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const foreign = await app.request('GET', `/api/audiences/${news.body.id}/sunset-preview?months=6`, { key: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await app.request('PATCH', `/api/segments/${news.body.id}`, { key: other.apiKey, body: { sunset_after_months: 1 } })).status).toBe(404);

    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const write = await call('PATCH', `/segments/${news.body.id}`, { sunset_after_months: 1 }, testKey);
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('FORBIDDEN');
    expect((await call('POST', '/audiences', { name: 'T', sunset_after_months: 3 }, testKey)).status).toBe(403);
    // Reads are open to test keys, the preview among them; nothing changed.
    expect((await call('GET', `/audiences/${news.body.id}/sunset-preview?months=6`, undefined, testKey)).status).toBe(200);
    expect((await call('GET', `/audiences/${news.body.id}`)).body.sunsetAfterMonths).toBe(36);
  });
});
