import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTRPCClient, httpLink } from '@trpc/client';
import { auditEvents, contacts, contactTopics, emails } from '@/db/schema';
import type { AppRouter } from '@/server/routers/types';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { preflightBroadcast } from '@/server/services/broadcasts/preflight/preflight';
import { setTopicSubscriptions, topicSubscriptionsOf } from '@/server/services/topics/subscriptions';
import { newId } from '@/server/ids';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { reviewedSendingOrg } from './support/sending-org';

// Issue 35, item 6: a contact's topics (GET/PATCH /contacts/{idOrEmail}/topics), and broadcasts
// sent under a topic, which reach only the members in it (docs/contacts.md, "Topics").

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  // Settled and reviewed, so a broadcast sends at once.
  org = await reviewedSendingOrg(app);
});

const db = () => app.runtime.deps.db;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });

async function topic(name: string, defaultSubscription: 'opt_in' | 'opt_out', key = org.apiKey): Promise<string> {
  const made = await call('POST', '/topics', { name, description: `${name}, now and then`, default_subscription: defaultSubscription }, key);
  expect(made.status, made.text).toBe(201);
  app.clock.advance(1_000);
  return made.body.id;
}

/** An audience with these addresses (ada@example.net …), answering the audience and each contact's id. */
async function audienceWith(locals: string[], key = org.apiKey): Promise<{ audienceId: string; ids: Record<string, string> }> {
  const audienceId = (await call('POST', '/audiences', { name: 'Newsletter' }, key)).body.id as string;
  const added = await call('POST', `/audiences/${audienceId}/contacts/batch`, { contacts: locals.map((local) => ({ email: `${local}@example.net` })) }, key);
  expect(added.status, added.text).toBe(200);
  const listed = await call('GET', `/audiences/${audienceId}/contacts?limit=100`, undefined, key);
  return { audienceId, ids: Object.fromEntries(listed.body.data.map((c: { email: string; id: string }) => [c.email.split('@')[0], c.id])) };
}

const topicsOf = async (idOrEmail: string, key = org.apiKey) => {
  const answer = await call('GET', `/contacts/${encodeURIComponent(idOrEmail)}/topics`, undefined, key);
  expect(answer.status, answer.text).toBe(200);
  return Object.fromEntries((answer.body.data as Array<{ name: string; subscription: string }>).map((row) => [row.name, row.subscription]));
};

const setTopics = (idOrEmail: string, topics: Array<{ id: string; subscription: string }>, key = org.apiKey) =>
  call('PATCH', `/contacts/${encodeURIComponent(idOrEmail)}/topics`, { topics }, key);

const auditOf = async () =>
  (
    await db()
      .select({ label: auditEvents.targetLabel, targetId: auditEvents.targetId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, org.organizationId), eq(auditEvents.action, 'contact.topics_updated')))
  ).map((row) => [row.label, row.details]);

describe('a contact’s topics', () => {
  it('lists every topic in the order made, with the contact’s own choice or else the default, by id or by address', async () => {
    const news = await topic('Product news', 'opt_in');
    const offers = await topic('Offers', 'opt_out');
    const { ids } = await audienceWith(['ada']);
    const answer = await call('GET', `/contacts/${ids.ada}/topics`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      // In Product news until leaving it (opt_in by default, as in Resend), out of Offers until joining it (opt_out).
      data: [
        { id: news, name: 'Product news', description: 'Product news, now and then', subscription: 'opt_in' },
        { id: offers, name: 'Offers', description: 'Offers, now and then', subscription: 'opt_out' },
      ],
    });
    // Resend's way: the address, URL-encoded, in any case.
    expect(await topicsOf('ADA@Example.NET')).toEqual({ 'Product news': 'opt_in', Offers: 'opt_out' });
  });

  it('changes the topics named and only those, keeps a choice whatever the default, and records what changed', async () => {
    const news = await topic('Product news', 'opt_in');
    const offers = await topic('Offers', 'opt_out');
    const events = await topic('Events', 'opt_out');
    const { ids } = await audienceWith(['ada', 'grace']);
    const changed = await setTopics('ada@example.net', [
      { id: news, subscription: 'opt_out' },
      { id: offers, subscription: 'opt_in' },
    ]);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.map((row: { name: string; subscription: string }) => [row.name, row.subscription])).toEqual([
      ['Product news', 'opt_out'],
      ['Offers', 'opt_in'],
      ['Events', 'opt_out'],
    ]);
    expect(await topicsOf(ids.grace!)).toEqual({ 'Product news': 'opt_in', Offers: 'opt_out', Events: 'opt_out' });
    // Choosing what the default says is kept as a choice too, and is no change.
    expect((await setTopics(ids.ada!, [{ id: events, subscription: 'opt_out' }])).status).toBe(200);
    const stored = await db().select({ topicId: contactTopics.topicId, subscribed: contactTopics.subscribed, organizationId: contactTopics.organizationId }).from(contactTopics).where(eq(contactTopics.contactId, ids.ada!));
    expect(stored.sort((a, b) => a.topicId.localeCompare(b.topicId))).toEqual(
      [
        { topicId: news, subscribed: false, organizationId: org.organizationId },
        { topicId: offers, subscribed: true, organizationId: org.organizationId },
        { topicId: events, subscribed: false, organizationId: org.organizationId },
      ].sort((a, b) => a.topicId.localeCompare(b.topicId)),
    );
    expect(await auditOf()).toEqual([
      [
        'ada@example.net',
        {
          topics: [
            { id: news, name: 'Product news', from: 'opt_in', to: 'opt_out' },
            { id: offers, name: 'Offers', from: 'opt_out', to: 'opt_in' },
          ],
        },
      ],
    ]);
    // The same again changes nothing and records nothing.
    const before = await db().select().from(contactTopics).where(eq(contactTopics.contactId, ids.ada!));
    app.clock.advance(60_000);
    expect((await setTopics(ids.ada!, [{ id: news, subscription: 'opt_out' }])).status).toBe(200);
    expect(await db().select().from(contactTopics).where(eq(contactTopics.contactId, ids.ada!))).toEqual(before);
    expect(await auditOf()).toHaveLength(1);
  });

  it('refuses, changing nothing: a topic not the organization’s (naming it), one named twice, an empty or malformed body, a contact not found', async () => {
    const news = await topic('Product news', 'opt_in');
    const { ids } = await audienceWith(['ada']);
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const theirs = await topic('Theirs', 'opt_in', other.apiKey);
    const unknown = newId();
    const refusal = async (path: string, body: unknown) => {
      const answer = await call('PATCH', path, body);
      return [answer.status, answer.body.code, answer.body.error];
    };
    const ada = `/contacts/${ids.ada}/topics`;
    expect(await refusal(ada, { topics: [{ id: news, subscription: 'opt_out' }, { id: theirs, subscription: 'opt_in' }] })).toEqual([404, 'NOT_FOUND', `Topic ${theirs} not found`]);
    expect(await refusal(ada, { topics: [{ id: unknown, subscription: 'opt_in' }] })).toEqual([404, 'NOT_FOUND', `Topic ${unknown} not found`]);
    expect(await refusal(ada, { topics: [{ id: news, subscription: 'opt_in' }, { id: news.toUpperCase(), subscription: 'opt_out' }] })).toEqual([
      400,
      'VALIDATION_ERROR',
      `topics[1].id: the topic ${news} is given twice`,
    ]);
    expect(await refusal(ada, { topics: [] })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('give at least one topic')]);
    expect(await refusal(ada, { topics: [{ id: news, subscription: 'maybe' }] })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('opt_in, opt_out')]);
    expect(await refusal(ada, { topics: [{ id: 'news', subscription: 'opt_in' }] })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('must be the id of one of your topics')]);
    expect(await refusal(ada, { topics: [{ id: news, subscription: 'opt_in', extra: 1 }] })).toEqual([400, 'VALIDATION_ERROR', expect.any(String)]);
    expect(await refusal(ada, { topics: news })).toEqual([400, 'VALIDATION_ERROR', expect.any(String)]);
    expect(await refusal(ada, {})).toEqual([400, 'VALIDATION_ERROR', expect.any(String)]);
    expect(await refusal(`/contacts/${newId()}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] })).toEqual([404, 'NOT_FOUND', 'Contact not found']);
    expect(await refusal(`/contacts/${encodeURIComponent('nobody@example.net')}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] })).toEqual([404, 'NOT_FOUND', 'Contact not found']);
    expect(await refusal('/contacts/not-a-contact/topics', { topics: [{ id: news, subscription: 'opt_in' }] })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('idOrEmail')]);
    expect(await refusal(`/contacts/${encodeURIComponent('Ada <ada@example.net>')}/topics`, { topics: [{ id: news, subscription: 'opt_in' }] })).toEqual([
      400,
      'VALIDATION_ERROR',
      expect.stringContaining('idOrEmail'),
    ]);
    expect(await db().select().from(contactTopics)).toEqual([]);
    expect(await auditOf()).toEqual([]);
  });

  it('are another organization’s contact’s to nobody else: 404 by id and by address, and its choices untouched', async () => {
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const theirTopic = await topic('Theirs', 'opt_in', other.apiKey);
    const { ids } = await audienceWith(['ada'], other.apiKey);
    expect((await setTopics(ids.ada!, [{ id: theirTopic, subscription: 'opt_in' }], other.apiKey)).status).toBe(200);
    await topic('Ours', 'opt_in');
    for (const idOrEmail of [ids.ada!, 'ada@example.net']) {
      const read = await call('GET', `/contacts/${encodeURIComponent(idOrEmail)}/topics`);
      expect([read.status, read.body]).toEqual([404, { error: 'Contact not found', code: 'NOT_FOUND' }]);
      expect((await setTopics(idOrEmail, [{ id: theirTopic, subscription: 'opt_out' }])).status).toBe(404);
    }
    expect(await topicsOf(ids.ada!, other.apiKey)).toEqual({ Theirs: 'opt_in' });
  });

  it('may be read with a test key but not changed (403), as audiences', async () => {
    const news = await topic('Product news', 'opt_in');
    const { ids } = await audienceWith(['ada']);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect(await topicsOf(ids.ada!, testKey)).toEqual({ 'Product news': 'opt_in' });
    const write = await setTopics(ids.ada!, [{ id: news, subscription: 'opt_out' }], testKey);
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(await topicsOf(ids.ada!)).toEqual({ 'Product news': 'opt_in' });
  });

  it('go with the topic or the contact when either is deleted', async () => {
    const news = await topic('Product news', 'opt_in');
    const offers = await topic('Offers', 'opt_out');
    const { audienceId, ids } = await audienceWith(['ada', 'grace']);
    await setTopics(ids.ada!, [{ id: news, subscription: 'opt_out' }, { id: offers, subscription: 'opt_in' }]);
    await setTopics(ids.grace!, [{ id: offers, subscription: 'opt_in' }]);
    expect((await call('DELETE', `/topics/${offers}`)).status).toBe(200);
    expect(await db().select({ contactId: contactTopics.contactId }).from(contactTopics)).toEqual([{ contactId: ids.ada }]);
    expect((await call('DELETE', `/audiences/${audienceId}/contacts/${ids.ada}`)).status).toBe(200);
    expect(await db().select().from(contactTopics)).toEqual([]);
  });

  it('are set by the service in the caller’s transaction, as POST /contacts will: the changes answered, nothing recorded by it', async () => {
    const news = await topic('Product news', 'opt_in');
    const offers = await topic('Offers', 'opt_out');
    const { ids } = await audienceWith(['ada']);
    const principal = { organizationId: org.organizationId };
    const changes = await db().transaction((tx) =>
      setTopicSubscriptions(tx, app.runtime.deps, principal, ids.ada!, [
        { id: news, subscription: 'opt_in' },
        { id: offers, subscription: 'opt_in' },
      ]),
    );
    expect(changes).toEqual([{ id: offers, name: 'Offers', from: 'opt_out', to: 'opt_in' }]);
    expect((await topicSubscriptionsOf(db(), principal, ids.ada!)).map((row) => row.subscription)).toEqual(['opt_in', 'opt_in']);
    // A refusal rolls the caller's transaction back with it.
    await expect(
      db().transaction(async (tx) => {
        await tx.update(contacts).set({ name: 'Changed' }).where(eq(contacts.id, ids.ada!));
        await setTopicSubscriptions(tx, app.runtime.deps, principal, ids.ada!, [{ id: newId(), subscription: 'opt_in' }]);
      }),
    ).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    expect((await db().select({ name: contacts.name }).from(contacts).where(eq(contacts.id, ids.ada!)))[0]!.name).toBeNull();
    expect(await auditOf()).toEqual([]);
  });
});

/** Sweeps until no broadcast has chunks left for now. */
async function drain(): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (!(await sweepBroadcasts(app.runtime.deps)).outcomes.more) return;
  }
  throw new Error('the fan-out did not finish');
}

const recipientsOf = async (broadcastId: string) =>
  (await db().select({ to: emails.to }).from(emails).where(eq(emails.broadcastId, broadcastId))).map((row) => row.to[0]!.split('@')[0]).sort();

async function broadcast(audienceId: string, topicId: string | null | undefined, key = org.apiKey) {
  return call('POST', '/broadcasts', { audience_id: audienceId, ...(topicId === undefined ? {} : { topic_id: topicId }), from: 'Acme <news@acme.example.com>', subject: 'News', html: '<p>Hi {{ unsubscribe_url }}</p>' }, key);
}

const principal = () => ({ organizationId: org.organizationId, permission: 'full_access' as const, keyId: null, domainId: null, userId: null, plan: '10k', rateLimitOverride: null });

const trpc = () => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.url}/api/trpc`, headers: { authorization: `Bearer ${org.apiKey}` }, methodOverride: 'POST' })] });

describe('broadcasts under a topic', () => {
  it('carry topic_id through create, get, update, duplicate and the audit log; the topic must be the organization’s', async () => {
    const news = await topic('Product news', 'opt_in');
    const offers = await topic('Offers', 'opt_out');
    const { audienceId } = await audienceWith(['ada']);
    const made = await broadcast(audienceId, news);
    expect(made.status, made.text).toBe(201);
    expect(made.body.topicId).toBe(news);
    expect((await call('GET', `/broadcasts/${made.body.id}`)).body.topicId).toBe(news);
    expect((await call('GET', '/broadcasts')).body.data[0].topicId).toBe(news);
    const copy = await call('POST', `/broadcasts/${made.body.id}/duplicate`);
    expect(copy.body.topicId).toBe(news);
    expect((await call('PATCH', `/broadcasts/${made.body.id}`, { topic_id: offers })).body.topicId).toBe(offers);
    expect((await call('PATCH', `/broadcasts/${made.body.id}`, { topic_id: null })).body.topicId).toBeNull();
    expect((await broadcast(audienceId, null)).body.topicId).toBeNull();
    expect((await broadcast(audienceId, undefined)).body.topicId).toBeNull();
    const audited = await db().select({ details: auditEvents.details }).from(auditEvents).where(and(eq(auditEvents.targetId, made.body.id), eq(auditEvents.action, 'broadcast.updated')));
    expect(audited.map((row) => row.details)).toEqual([{ fields: ['topicId'] }, { fields: ['topicId'] }]);

    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const theirs = await topic('Theirs', 'opt_in', other.apiKey);
    for (const [body, status, code] of [
      [{ topic_id: theirs }, 404, 'NOT_FOUND'],
      [{ topic_id: newId() }, 404, 'NOT_FOUND'],
      [{ topic_id: 'news' }, 400, 'VALIDATION_ERROR'],
      [{ topic_id: 7 }, 400, 'VALIDATION_ERROR'],
    ] as const) {
      const created = await call('POST', '/broadcasts', { audience_id: audienceId, from: 'Acme <news@acme.example.com>', subject: 'News', html: '<p>Hi</p>', ...body });
      expect([created.status, created.body.code], JSON.stringify(body)).toEqual([status, code]);
      const updated = await call('PATCH', `/broadcasts/${made.body.id}`, body);
      expect([updated.status, updated.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await call('GET', `/broadcasts/${made.body.id}`)).body.topicId).toBeNull();
  });

  it('keep their topic from being deleted until they are sent; a sent one lets it go and keeps its history', async () => {
    const news = await topic('Product news', 'opt_in');
    const { audienceId } = await audienceWith(['ada']);
    const draft = (await broadcast(audienceId, news)).body.id;
    const refused = await call('DELETE', `/topics/${news}`);
    expect([refused.status, refused.body]).toEqual([409, { code: 'CONFLICT', error: 'The topic cannot be deleted: the broadcast "News" under it is draft; change its topic first' }]);
    expect((await call('POST', `/broadcasts/${draft}/send`)).status).toBe(200);
    expect((await call('DELETE', `/topics/${news}`)).body.error).toBe('The topic cannot be deleted: the broadcast "News" under it is sending; cancel it or wait until it is sent');
    await drain();
    expect((await call('GET', `/broadcasts/${draft}`)).body.status).toBe('sent');
    expect((await call('DELETE', `/topics/${news}`)).status).toBe(200);
    expect((await call('GET', `/broadcasts/${draft}`)).body).toMatchObject({ status: 'sent', topicId: null, counts: { recipients: 1, queued: 1 } });
  });

  it('reach the members in the topic (their choice, else the default) who are subscribed and not unsubscribed from everything, in every count', async () => {
    const offers = await topic('Offers', 'opt_out');
    const news = await topic('Product news', 'opt_in');
    const { audienceId, ids } = await audienceWith(['ada', 'bob', 'cy', 'dee', 'eve', 'fay']);
    // Offers (out until joining): ada, bob and cy joined; dee joined and left again.
    for (const local of ['ada', 'bob', 'cy', 'dee']) await setTopics(ids[local]!, [{ id: offers, subscription: 'opt_in' }]);
    await setTopics(ids.dee!, [{ id: offers, subscription: 'opt_out' }]);
    // Product news (in until leaving): eve left it; fay chose to stay in, which changes nothing.
    await setTopics(ids.eve!, [{ id: news, subscription: 'opt_out' }]);
    await setTopics(ids.fay!, [{ id: news, subscription: 'opt_in' }]);
    // bob left the audience; cy left everything.
    await call('PATCH', `/audiences/${audienceId}/contacts/${ids.bob}`, { subscribed: false });
    await db().update(contacts).set({ unsubscribed: true }).where(eq(contacts.id, ids.cy!));

    const toOffers = (await broadcast(audienceId, offers)).body.id;
    const toNews = (await broadcast(audienceId, news)).body.id;
    const toAll = (await broadcast(audienceId, null)).body.id;
    // The composer's count and the pre-flight's, before sending.
    expect((await trpc().broadcasts.preview.query({ id: toOffers })).recipients).toBe(1);
    expect((await trpc().broadcasts.preview.query({ subject: 'News', html: '<p>Hi</p>', audience_id: audienceId, topic_id: news })).recipients).toBe(3);
    expect((await trpc().broadcasts.preview.query({ id: toAll })).recipients).toBe(4);
    const quality = async (id: string) => (await preflightBroadcast(app.runtime.deps, { ...principal(), mode: 'live' }, id)).checks.find((check) => check.id === 'audience_quality')!.detail;
    expect(await quality(toOffers)).toContain('Of the 1 subscribed contacts of "Newsletter" in the topic "Offers"');
    expect(await quality(toNews)).toContain('Of the 3 subscribed contacts of "Newsletter" in the topic "Product news"');
    expect(await quality(toAll)).toContain('Of the 4 subscribed contacts of "Newsletter", ');

    for (const id of [toOffers, toNews, toAll]) expect((await call('POST', `/broadcasts/${id}/send`)).status).toBe(200);
    await drain();
    expect(await recipientsOf(toOffers)).toEqual(['ada']);
    expect(await recipientsOf(toNews)).toEqual(['ada', 'dee', 'fay']);
    expect(await recipientsOf(toAll)).toEqual(['ada', 'dee', 'eve', 'fay']);
    expect((await call('GET', `/broadcasts/${toOffers}`)).body.counts).toMatchObject({ recipients: 1, queued: 1, skipped: 0 });
    expect((await call('GET', `/broadcasts/${toNews}`)).body.counts).toMatchObject({ recipients: 3, queued: 3, skipped: 0 });
  });

  it('skip a member who leaves the topic after sending started, counted as skipped; one who left before is in no count', async () => {
    const news = await topic('Product news', 'opt_in');
    const { audienceId, ids } = await audienceWith(['ada', 'bob', 'cy']);
    await setTopics(ids.cy!, [{ id: news, subscription: 'opt_out' }]);
    const id = (await broadcast(audienceId, news)).body.id;
    expect((await call('POST', `/broadcasts/${id}/send`)).body.counts.recipients).toBe(2);
    app.clock.advance(1_000);
    await setTopics(ids.bob!, [{ id: news, subscription: 'opt_out' }]);
    await drain();
    expect(await recipientsOf(id)).toEqual(['ada']);
    expect((await call('GET', `/broadcasts/${id}`)).body).toMatchObject({ status: 'sent', counts: { recipients: 2, queued: 1, skipped: 1 } });
  });
});
