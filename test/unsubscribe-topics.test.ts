import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { audienceMemberships, broadcasts, contacts, contactTopics, emailEvents, emails, events, suppressions, topics } from '@/db/schema';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { unsubscribe } from '@/server/services/unsubscribe/unsubscribe';
import { newId } from '@/server/ids';
import { startTestApp, type TestApp } from './support/app';
import { seedAudienceMember, seedBroadcastCopy } from './support/broadcast-copy';
import { reviewedSendingOrg } from './support/sending-org';

// Issue 35, item 6: the unsubscribe of a message sent under a topic leaves that topic only, and the
// page of an organization with topics is a preference page (docs/contacts.md, "Topics"). The plain
// page and every path without topics are test/unsubscribe.test.ts's.

const ADDRESS = 'ada@example.net';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { APP_URL: 'https://mail.eumail.test' } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const db = () => app.runtime.deps.db;

interface Seeded {
  organizationId: string;
  audienceId: string;
  contactId: string;
  membershipId: string;
  news: string;
  offers: string;
  broadcastId: string;
  emailId: string;
  token: string;
}

/**
 * An organization with two topics (Product news: in until leaving; Offers: out until joining), an
 * audience with Ada in it, and Ada's copy of a broadcast sent under `topic` (none: to the audience).
 */
async function seed(options: { topic?: 'news' | 'offers' | null; names?: { news?: string; description?: string } } = {}): Promise<Seeded> {
  const member = await seedAudienceMember(app, { address: ADDRESS });
  const { organizationId } = member;
  const now = app.clock.now();
  const news = newId();
  const offers = newId();
  await db()
    .insert(topics)
    .values([
      { id: news, organizationId, name: options.names?.news ?? 'Product news', description: options.names?.description ?? 'What we made this month', defaultSubscription: 'opt_in', createdAt: now, updatedAt: now },
      { id: offers, organizationId, name: 'Offers', description: null, defaultSubscription: 'opt_out', createdAt: new Date(now.getTime() + 1), updatedAt: now },
    ]);
  const topicId = options.topic === undefined || options.topic === 'news' ? news : options.topic === 'offers' ? offers : null;
  const copy = await seedBroadcastCopy(app, { ...member, address: ADDRESS }, { topicId });
  return { ...member, news, offers, ...copy };
}

const url = (token: string) => `${app.url}/unsubscribe/${token}`;
const getPage = async (token: string) => (await fetch(url(token), { redirect: 'manual' })).text();
const post = (token: string, body: string) => fetch(url(token), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
const oneClick = (token: string) => post(token, 'List-Unsubscribe=One-Click');
/** The preference form as a browser posts it: what it showed, and the boxes left ticked. */
const preferences = (s: Seeded, ticked: string[], extra = '') =>
  post(s.token, `confirm=1&preferences=1&shown=${encodeURIComponent(`${s.news} ${s.offers}`)}${ticked.map((id) => `&topic_${id}=1`).join('')}${extra}`);

/** Everything an unsubscribe may write. */
async function snapshot(s: Seeded) {
  const [membership] = await db().select({ subscribed: audienceMemberships.subscribed }).from(audienceMemberships).where(eq(audienceMemberships.id, s.membershipId));
  const [contact] = await db().select({ unsubscribed: contacts.unsubscribed }).from(contacts).where(eq(contacts.id, s.contactId));
  const choices = await db().select({ topicId: contactTopics.topicId, subscribed: contactTopics.subscribed }).from(contactTopics).where(eq(contactTopics.contactId, s.contactId));
  const [broadcast] = await db().select({ unsubscribed: broadcasts.unsubscribed }).from(broadcasts).where(eq(broadcasts.id, s.broadcastId));
  return {
    inAudience: membership?.subscribed ?? null,
    unsubscribedAll: contact?.unsubscribed ?? null,
    topics: Object.fromEntries(choices.map((choice) => [choice.topicId === s.news ? 'news' : choice.topicId === s.offers ? 'offers' : choice.topicId, choice.subscribed])),
    unsubscribedCount: broadcast!.unsubscribed,
    // The consent ledger's own events (contact.consent_changed) are test/consent-ledger.test.ts's.
    events: (await db().select({ type: events.type }).from(events).where(eq(events.organizationId, s.organizationId)))
      .map((e) => e.type)
      .filter((type) => type !== 'contact.consent_changed')
      .sort(),
    history: (await db().select({ type: emailEvents.type, data: emailEvents.data }).from(emailEvents).where(eq(emailEvents.emailId, s.emailId)).orderBy(emailEvents.id)).map((e) => [e.type, (e.data as { via?: string }).via]),
    suppressions: (await db().select({ email: suppressions.email, reason: suppressions.reason }).from(suppressions).where(eq(suppressions.organizationId, s.organizationId))).map((r) => [r.email, r.reason]),
  };
}

const untouched = { inAudience: true, unsubscribedAll: false, topics: {}, unsubscribedCount: 0, events: [], history: [], suppressions: [] };

describe('a message sent under a topic', () => {
  it('one-click leaves the topic only: the audience and the other topics stay, the email records the unsubscribe once', async () => {
    const s = await seed();
    const response = await oneClick(s.token);
    expect([response.status, await response.text()]).toEqual([200, 'Unsubscribed\n']);
    const after = await snapshot(s);
    expect(after).toEqual({ ...untouched, topics: { news: false }, unsubscribedCount: 1, events: ['email.unsubscribed'], history: [['email.unsubscribed', 'one-click']] });
    // Again, by one-click, mail or the plain form: nothing more.
    app.clock.advance(60_000);
    await oneClick(s.token);
    await post(s.token, 'confirm=1');
    expect(await unsubscribe(app.runtime.deps, s.token, { everything: false, via: 'mailto' })).toMatchObject({ changed: false, state: { status: 'unsubscribed', topic: { id: s.news, name: 'Product news' } } });
    expect(await snapshot(s)).toEqual(after);
  });

  it('mail to the mailto address leaves the topic only too; an opt-out topic the contact had joined is left the same way', async () => {
    const s = await seed({ topic: 'offers' });
    await db().insert(contactTopics).values({ contactId: s.contactId, topicId: s.offers, organizationId: s.organizationId, subscribed: true, updatedAt: app.clock.now() });
    expect(await unsubscribe(app.runtime.deps, s.token, { everything: false, via: 'mailto' })).toMatchObject({ changed: true, state: { status: 'unsubscribed', inAudience: true } });
    expect(await snapshot(s)).toEqual({ ...untouched, topics: { offers: false }, unsubscribedCount: 1, events: ['email.unsubscribed'], history: [['email.unsubscribed', 'mailto']] });
  });

  it('leaves the audience, as before topics, when the broadcast had none or the email is gone', async () => {
    const s = await seed({ topic: null });
    await oneClick(s.token);
    expect(await snapshot(s)).toMatchObject({ inAudience: false, topics: {}, events: ['contact.updated', 'email.unsubscribed'] });

    await app.reset();
    const gone = await seed();
    // The email's retention ran out: the token still names the membership, not the topic.
    await db().delete(emails).where(eq(emails.id, gone.emailId));
    await oneClick(gone.token);
    expect(await snapshot(gone)).toMatchObject({ inAudience: false, topics: {}, events: ['contact.updated'], unsubscribedCount: 0 });
  });
});

describe('the preference page', () => {
  it('lists every topic with a box ticked while the contact gets it, marks the email’s topic, and changes nothing on GET or HEAD', async () => {
    const s = await seed();
    const before = await snapshot(s);
    const response = await fetch(url(s.token), { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).toContain('<h1>Email preferences</h1>');
    expect(html).toContain(`<input type="hidden" name="shown" value="${s.news} ${s.offers}">`);
    expect(html).toContain(
      `<label><input type="checkbox" name="topic_${s.news}" value="1" checked><span><span class="name">Product news</span><span class="tag">this email</span><span class="about">What we made this month</span></span></label>`,
    );
    expect(html).toContain(`<label><input type="checkbox" name="topic_${s.offers}" value="1"><span><span class="name">Offers</span></span></label>`);
    // Sent under a topic: the audience is not offered; leaving everything is.
    expect(html).not.toContain('name="audience"');
    expect(html).toContain('<button type="submit" class="save">Save preferences</button>');
    expect(html).toContain('<button type="submit" name="everything" value="1">Unsubscribe from everything</button>');
    expect(html.match(/<form/g)).toHaveLength(1);
    expect(html).not.toMatch(/<(script|img|link|iframe)\b|src=|href=/i);
    expect((await fetch(url(s.token), { method: 'HEAD' })).status).toBe(200);
    expect(await snapshot(s)).toEqual(before);
  });

  it('saves the boxes: the email’s topic unticked is left (the email records it), another ticked is joined', async () => {
    const s = await seed();
    const response = await preferences(s, [s.offers]);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1>Preferences saved</h1>');
    expect(html).toContain(`<span class="address">${ADDRESS}</span> gets <strong>Offers</strong> from Acme.`);
    expect(html).toContain(`name="topic_${s.offers}" value="1" checked`);
    expect(await snapshot(s)).toEqual({ ...untouched, topics: { news: false, offers: true }, unsubscribedCount: 1, events: ['email.unsubscribed'], history: [['email.unsubscribed', 'page']] });
    // Ticked again: joined again, the email's unsubscribe stays recorded once.
    await preferences(s, [s.news, s.offers]);
    expect(await snapshot(s)).toMatchObject({ topics: { news: true, offers: true }, unsubscribedCount: 1, history: [['email.unsubscribed', 'page']] });
  });

  it('records no unsubscribe on the email when only another topic changed, and writes nothing for a box left as it was', async () => {
    const s = await seed();
    await preferences(s, [s.news, s.offers]);
    expect(await snapshot(s)).toEqual({ ...untouched, topics: { offers: true } });
    const saved = await snapshot(s);
    await preferences(s, [s.news, s.offers]);
    expect(await snapshot(s)).toEqual(saved);
  });

  it('touches only what the form showed and the organization’s own topics: a topic made since, another organization’s, and junk are passed over', async () => {
    const s = await seed();
    const other = await seed();
    const later = newId();
    await db().insert(topics).values({ id: later, organizationId: s.organizationId, name: 'Events', defaultSubscription: 'opt_in', createdAt: app.clock.now(), updatedAt: app.clock.now() });
    const hostile = `confirm=1&preferences=1&shown=${encodeURIComponent(`${s.news} ${other.offers} not-an-id ${s.offers.toUpperCase()}`)}&topic_${s.news}=1&topic_${other.offers}=1&topic_${s.offers.toUpperCase()}=1&topic_junk=1&topic_${s.news}x=1`;
    expect((await post(s.token, hostile)).status).toBe(200);
    expect(await snapshot(s)).toEqual({ ...untouched, topics: { offers: true } });
    expect(await snapshot(other)).toEqual(untouched);
    // `Events` was not on the form: Ada is still in it by its default.
    expect(await getPage(s.token)).toContain(`name="topic_${later}" value="1" checked`);
  });

  it('"Unsubscribe from everything": out of the audience, unsubscribed from everything, on the suppression list; then says so and offers nothing more', async () => {
    const s = await seed();
    const response = await preferences(s, [s.news], '&everything=1');
    const html = await response.text();
    expect(html).toContain('<h1>You are unsubscribed from everything</h1>');
    expect(html).toContain('gets no more email from Acme');
    expect(await snapshot(s)).toEqual({
      ...untouched,
      inAudience: false,
      unsubscribedAll: true,
      unsubscribedCount: 1,
      events: ['contact.updated', 'email.unsubscribed'],
      history: [['email.unsubscribed', 'page']],
      suppressions: [[ADDRESS, 'unsubscribe']],
    });
    const page = await getPage(s.token);
    expect(page).toContain('<h1>Unsubscribed from everything</h1>');
    expect(page).not.toContain('<form');
    const after = await snapshot(s);
    await preferences(s, [s.news], '&everything=1');
    expect(await snapshot(s)).toEqual(after);
  });

  it('offers the audience when the email was sent to it without a topic: unticked, the contact leaves it', async () => {
    const s = await seed({ topic: null });
    const html = await getPage(s.token);
    expect(html).toContain('<legend>Mailing list</legend><label><input type="checkbox" name="audience" value="1" checked><span><span class="name">Weekly news</span><span class="tag">this email</span>');
    expect(html).toContain(`<input type="hidden" name="shown" value="${s.news} ${s.offers} audience">`);
    // Ticked: stays.
    await post(s.token, `confirm=1&preferences=1&shown=${encodeURIComponent(`${s.news} ${s.offers} audience`)}&topic_${s.news}=1&audience=1`);
    expect(await snapshot(s)).toEqual(untouched);
    await post(s.token, `confirm=1&preferences=1&shown=${encodeURIComponent(`${s.news} ${s.offers} audience`)}&topic_${s.news}=1`);
    expect(await snapshot(s)).toEqual({ ...untouched, inAudience: false, unsubscribedCount: 1, events: ['contact.updated', 'email.unsubscribed'], history: [['email.unsubscribed', 'page']] });
    const again = await getPage(s.token);
    expect(again).toContain('has left the list <strong>Weekly news</strong> and gets none of its emails');
    expect(again).not.toContain('name="audience"');
  });

  it('escapes every value it shows: hostile topic names and descriptions', async () => {
    const s = await seed({ names: { news: '<script>alert(1)</script>', description: '"><img src=x onerror=alert(2)>' } });
    const html = await getPage(s.token);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toMatch(/<script|<img/);
    const saved = await (await preferences(s, [s.news])).text();
    expect(saved).not.toMatch(/<script|<img/);
  });

  it('still answers the plain form (a page opened before the organization had topics): it leaves the email’s topic', async () => {
    const s = await seed();
    const response = await post(s.token, 'confirm=1');
    expect(await response.text()).toContain('will get no more emails of <strong>Product news</strong> from <strong>Acme</strong>');
    expect(await snapshot(s)).toMatchObject({ inAudience: true, topics: { news: false }, unsubscribedCount: 1 });
  });
});

describe('end to end: a broadcast under a topic, its one-click header, the next broadcasts', () => {
  it('leaves the topic by the List-Unsubscribe URL of the real message: the next broadcast under it skips Ada, another still reaches her', async () => {
    const org = await reviewedSendingOrg(app);
    const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
    const news = (await call('POST', '/topics', { name: 'Product news', default_subscription: 'opt_in' })).body.id;
    const audienceId = (await call('POST', '/audiences', { name: 'Weekly news' })).body.id;
    await call('POST', `/audiences/${audienceId}/contacts/batch`, { contacts: [{ email: ADDRESS }, { email: 'grace@example.net' }] });
    const sendUnder = async (topicId: string | null) => {
      const made = await call('POST', '/broadcasts', { audience_id: audienceId, topic_id: topicId, from: 'Acme <news@acme.example.com>', subject: 'News', html: '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>' });
      expect((await call('POST', `/broadcasts/${made.body.id}/send`)).status).toBe(200);
      for (let i = 0; i < 20 && (await sweepBroadcasts(app.runtime.deps)).outcomes.more; i += 1);
      return db().select({ to: emails.to, headers: emails.headers }).from(emails).where(eq(emails.broadcastId, made.body.id));
    };
    const first = await sendUnder(news);
    const adas = first.find((row) => row.to[0] === ADDRESS)!;
    const headers = adas.headers as Record<string, string>;
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const link = /^<([^>]+)>/.exec(headers['List-Unsubscribe']!)![1]!;
    // The mailbox's one-click POST, to the URL the message carries.
    const clicked = await fetch(link.replace(app.runtime.config.appUrl, app.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(clicked.status).toBe(200);
    expect((await sendUnder(news)).map((row) => row.to[0])).toEqual(['grace@example.net']);
    expect((await sendUnder(null)).map((row) => row.to[0]).sort()).toEqual([ADDRESS, 'grace@example.net']);
    const [membership] = await db()
      .select({ subscribed: audienceMemberships.subscribed })
      .from(audienceMemberships)
      .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
      .where(and(eq(audienceMemberships.audienceId, audienceId), eq(contacts.email, ADDRESS)));
    expect(membership!.subscribed).toBe(true);
  });
});
