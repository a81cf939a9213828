import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { events, organizations } from '@/db/schema';
import { startTestApp, type TestApp } from './support/app';

// Issue 35 item 7: the organization's contacts at /contacts (Resend's global contacts), by id or
// by address, with first and last names, a global `unsubscribed`, typed property values and
// their segments.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

type Org = { organizationId: string; apiKey: string };
const call = (org: Org, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
const segmentOf = async (org: Org, name: string) => (await call(org, 'POST', '/segments', { name })).body.id as string;
const contactCount = async (org: Org) =>
  (await app.runtime.deps.db.select({ count: organizations.contactCount }).from(organizations).where(eq(organizations.id, org.organizationId)))[0]!.count;

async function withProperties(org: Org) {
  for (const body of [{ key: 'plan', type: 'string' }, { key: 'seats', type: 'number' }, { key: 'trial', type: 'boolean' }, { key: 'renews', type: 'date' }]) {
    expect((await call(org, 'POST', '/contact-properties', body)).status).toBe(201);
  }
}

describe('POST /contacts', () => {
  it('adds a contact with its names, typed values and segments, and answers the same contact for the same address', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const news = await segmentOf(org, 'News');
    const created = await call(org, 'POST', '/contacts', {
      email: 'Ada@Example.net',
      first_name: 'Ada',
      last_name: 'Lovelace',
      properties: { plan: 'pro', seats: 3, trial: false, renews: '2027-01-31T10:00:00+01:00' },
      segments: [{ id: news }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      email: 'ada@example.net',
      name: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      unsubscribed: false,
      pending: false,
      properties: { plan: 'pro', seats: 3, trial: false, renews: '2027-01-31T09:00:00.000Z' },
      engagement: { lastDeliveredAt: null, lastOpenedAt: null, lastClickedAt: null },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // In the segment, through the spec's own route, subscribed.
    expect((await call(org, 'GET', `/audiences/${news}/contacts/${created.body.id}`)).body).toMatchObject({ email: 'ada@example.net', name: 'Ada Lovelace', subscribed: true });
    expect((await call(org, 'GET', `/audiences/${news}`)).body.contactCount).toBe(1);
    // The same address again: the same contact, updated; an opt-out is never removed by a create.
    await call(org, 'PATCH', `/contacts/${created.body.id}`, { unsubscribed: true });
    const again = await call(org, 'POST', '/contacts', { email: 'ada@example.net', unsubscribed: false, properties: { seats: 4 } });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: created.body.id, unsubscribed: true, properties: { plan: 'pro', seats: 4 } });
    expect(await contactCount(org)).toBe(1);
    const types = (await app.runtime.deps.db.select({ type: events.type }).from(events).where(eq(events.organizationId, org.organizationId))).map((e) => e.type);
    // And one contact.consent_changed per consent-ledger entry: subscribed (organization), subscribed (the segment), unsubscribed.
    expect(types.sort()).toEqual(['contact.consent_changed', 'contact.consent_changed', 'contact.consent_changed', 'contact.created', 'contact.created', 'contact.updated', 'contact.updated']);
  });

  it('refuses values not of their property, keys that are no property, a bad address and an unknown segment, storing nothing', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const refusals: Array<[unknown, string]> = [
      [{ email: 'ada@example.net', properties: { seats: 'three' } }, 'properties.seats: must be a number'],
      [{ email: 'ada@example.net', properties: { renews: '2027-02-30' } }, 'properties.renews: is not a real day'],
      [{ email: 'ada@example.net', properties: { colour: 'red' } }, 'properties.colour: no contact property has this key; create it first (POST /contact-properties)'],
      [{ email: 'Ada <ada@example.net>' }, 'email: "Ada <ada@example.net>": give the address alone and the name in "name"'],
    ];
    for (const [body, error] of refusals) expect((await call(org, 'POST', '/contacts', body)).body).toEqual({ error, code: 'VALIDATION_ERROR' });
    const unknown = await call(org, 'POST', '/contacts', { email: 'ada@example.net', segments: [{ id: '01900000-0000-7000-8000-000000000000' }] });
    expect(unknown.status).toBe(404);
    expect(await contactCount(org)).toBe(0);
  });

  it('counts a new address against the plan, not an address the organization holds', async () => {
    const org = await app.createOrg({ plan: 'free' });
    const news = await segmentOf(org, 'News');
    const rows = Array.from({ length: 1000 }, (_, i) => ({ email: `r${i}@example.net` }));
    expect((await call(org, 'POST', `/audiences/${news}/contacts/batch`, { contacts: rows })).status).toBe(200);
    expect((await call(org, 'POST', '/contacts', { email: 'r1@example.net', first_name: 'R' })).status).toBe(201);
    expect((await call(org, 'POST', '/contacts', { email: 'new@example.net' })).body.code).toBe('PLAN_LIMIT_EXCEEDED');
  });
});

describe('/contacts/{idOrEmail}', () => {
  it('reads by id or by address, changes names, the global subscription and values, and deletes from everything', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const [news, offers] = [await segmentOf(org, 'News'), await segmentOf(org, 'Offers')];
    const id = (await call(org, 'POST', '/contacts', { email: 'ada@example.net', first_name: 'Ada', properties: { plan: 'free' }, segments: [{ id: news }, { id: offers }] })).body.id;
    expect((await call(org, 'GET', `/contacts/${encodeURIComponent('ADA@example.net')}`)).body.id).toBe(id);
    // A derived name follows the names; one a person gave stays.
    expect((await call(org, 'PATCH', `/contacts/${id}`, { last_name: 'Lovelace' })).body).toMatchObject({ name: 'Ada Lovelace', lastName: 'Lovelace' });
    expect((await call(org, 'PATCH', `/contacts/${id}`, { name: 'Countess' })).body.name).toBe('Countess');
    expect((await call(org, 'PATCH', `/contacts/${id}`, { first_name: 'Augusta' })).body).toMatchObject({ name: 'Countess', firstName: 'Augusta' });
    const changed = await call(org, 'PATCH', `/contacts/ada%40example.net`, { unsubscribed: true, properties: { plan: null, seats: 2 } });
    expect(changed.body).toMatchObject({ unsubscribed: true, properties: { seats: 2 } });
    expect(changed.body.properties).not.toHaveProperty('plan');
    // PATCH may subscribe again: an act of the account.
    expect((await call(org, 'PATCH', `/contacts/${id}`, { unsubscribed: false })).body.unsubscribed).toBe(false);
    expect((await call(org, 'PATCH', `/contacts/${id}`, { properties: { seats: true } })).body).toEqual({ error: 'properties.seats: must be a number', code: 'VALIDATION_ERROR' });
    expect((await call(org, 'GET', '/contacts/nobody%40example.net')).status).toBe(404);
    expect((await call(org, 'GET', '/contacts/not-an-address')).body.code).toBe('VALIDATION_ERROR');

    expect((await call(org, 'DELETE', `/contacts/${id}`)).body).toEqual({ message: 'Contact deleted' });
    expect((await call(org, 'GET', `/contacts/${id}`)).status).toBe(404);
    expect([(await call(org, 'GET', `/audiences/${news}`)).body.contactCount, (await call(org, 'GET', `/audiences/${offers}`)).body.contactCount]).toEqual([0, 0]);
    expect(await contactCount(org)).toBe(0);
  });

  it("joins and leaves segments; leaving the last keeps the contact (Resend's rule)", async () => {
    const org = await app.createOrg();
    const [news, offers] = [await segmentOf(org, 'News'), await segmentOf(org, 'Offers')];
    const id = (await call(org, 'POST', '/contacts', { email: 'ada@example.net' })).body.id;
    expect((await call(org, 'GET', `/contacts/${id}/segments`)).body).toEqual({ data: [] });
    expect((await call(org, 'POST', `/contacts/${id}/segments/${news}`)).body).toEqual({ id: news });
    expect((await call(org, 'POST', `/contacts/ada%40example.net/segments/${news}`)).status).toBe(200);
    await call(org, 'POST', `/contacts/${id}/segments/${offers}`);
    await call(org, 'PATCH', `/audiences/${offers}/contacts/${id}`, { subscribed: false });
    expect((await call(org, 'GET', `/contacts/${id}/segments`)).body.data).toEqual([
      { id: news, name: 'News', subscribed: true, joinedAt: expect.any(String) },
      { id: offers, name: 'Offers', subscribed: false, joinedAt: expect.any(String) },
    ]);
    expect((await call(org, 'GET', `/audiences/${news}`)).body.contactCount).toBe(1);
    expect((await call(org, 'DELETE', `/contacts/${id}/segments/${news}`)).body).toEqual({ id: news });
    expect((await call(org, 'DELETE', `/contacts/${id}/segments/${news}`)).body).toEqual({ error: 'The contact is not in this segment', code: 'NOT_FOUND' });
    await call(org, 'DELETE', `/contacts/${id}/segments/${offers}`);
    expect((await call(org, 'GET', `/contacts/${id}`)).status).toBe(200);
    expect(await contactCount(org)).toBe(1);
    // Another organization's segment is not found for this contact.
    const other = await app.createOrg();
    const theirs = await segmentOf(other, 'Theirs');
    expect((await call(org, 'POST', `/contacts/${id}/segments/${theirs}`)).status).toBe(404);
  });
});

describe('GET /contacts', () => {
  it('pages the organization’s contacts newest first, by search, segment and property value', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const news = await segmentOf(org, 'News');
    for (let i = 0; i < 5; i += 1) {
      await call(org, 'POST', '/contacts', { email: `user${i}@example.net`, properties: { plan: i % 2 ? 'pro' : 'free', seats: i }, segments: i < 2 ? [{ id: news }] : [] });
    }
    await call(org, 'POST', '/contacts', { email: 'grace@example.org' });
    const emails = (body: { data: Array<{ email: string }> }) => body.data.map((c) => c.email);
    const first = (await call(org, 'GET', '/contacts?limit=4')).body;
    expect(emails(first)).toEqual(['grace@example.org', 'user4@example.net', 'user3@example.net', 'user2@example.net']);
    expect(emails((await call(org, 'GET', `/contacts?limit=4&cursor=${first.nextCursor}`)).body)).toEqual(['user1@example.net', 'user0@example.net']);
    expect(emails((await call(org, 'GET', '/contacts?search=EXAMPLE.ORG')).body)).toEqual(['grace@example.org']);
    expect(emails((await call(org, 'GET', `/contacts?segment_id=${news}`)).body)).toEqual(['user1@example.net', 'user0@example.net']);
    expect(emails((await call(org, 'GET', '/contacts?property=plan:pro')).body)).toEqual(['user3@example.net', 'user1@example.net']);
    expect(emails((await call(org, 'GET', '/contacts?property=plan:pro&property=seats:3')).body)).toEqual(['user3@example.net']);
    expect((await call(org, 'GET', '/contacts?property=plan')).body).toEqual({ error: 'property: "plan" must be key:value', code: 'VALIDATION_ERROR' });
    const other = await app.createOrg();
    expect((await call(other, 'GET', '/contacts')).body.data).toEqual([]);
    expect((await call(other, 'GET', `/contacts?segment_id=${news}`)).status).toBe(404);
  });
});

describe("Resend's contact fields on the spec's audience routes", () => {
  it('takes first and last names, unsubscribed and typed values on a create and in a batch, never removing an opt-out', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const news = await segmentOf(org, 'News');
    const created = await call(org, 'POST', `/audiences/${news}/contacts`, { email: 'ada@example.net', first_name: 'Ada', last_name: 'Lovelace', properties: { seats: 2 } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ email: 'ada@example.net', name: 'Ada Lovelace', subscribed: true });
    expect((await call(org, 'GET', `/contacts/${created.body.id}`)).body).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', unsubscribed: false, properties: { seats: 2 } });
    const batch = await call(org, 'POST', `/audiences/${news}/contacts/batch`, {
      contacts: [
        { email: 'ada@example.net', first_name: 'Augusta', unsubscribed: true, properties: { plan: 'pro' } },
        { email: 'bob@example.net', properties: { seats: 'many' } },
        { email: 'cy@example.net', last_name: 'Young' },
      ],
    });
    expect(batch.body).toMatchObject({ created: 1, updated: 1, unchanged: 0, errors: [{ index: 1, email: 'bob@example.net', error: 'properties.seats: must be a number' }] });
    // The derived name follows the new first name; values merge; the global opt-out is taken.
    expect((await call(org, 'GET', `/contacts/${created.body.id}`)).body).toMatchObject({ name: 'Augusta Lovelace', unsubscribed: true, properties: { seats: 2, plan: 'pro' } });
    expect((await call(org, 'GET', '/contacts/cy%40example.net')).body).toMatchObject({ name: 'Young', lastName: 'Young' });
    // An import never removes an opt-out, here the global one.
    await call(org, 'POST', `/audiences/${news}/contacts/batch`, { contacts: [{ email: 'ada@example.net', unsubscribed: false }] });
    expect((await call(org, 'GET', `/contacts/${created.body.id}`)).body.unsubscribed).toBe(true);
    expect((await call(org, 'POST', `/audiences/${news}/contacts`, { email: 'dee@example.net', properties: { colour: 'red' } })).body).toEqual({
      error: 'properties.colour: no contact property has this key; create it first (POST /contact-properties)',
      code: 'VALIDATION_ERROR',
    });
  });
});

describe('POST /contacts with topics', () => {
  it("records the contact's choices, the other topics following their default; an unknown topic stores nothing", async () => {
    const org = await app.createOrg();
    const news = (await call(org, 'POST', '/topics', { name: 'Product news', default_subscription: 'opt_in' })).body.id;
    const offers = (await call(org, 'POST', '/topics', { name: 'Offers', default_subscription: 'opt_out' })).body.id;
    const events = (await call(org, 'POST', '/topics', { name: 'Events', default_subscription: 'opt_in' })).body.id;
    const created = await call(org, 'POST', '/contacts', { email: 'ada@example.net', topics: [{ id: news, subscription: 'opt_out' }, { id: offers, subscription: 'opt_in' }] });
    expect(created.status, created.text).toBe(201);
    const topics = (await call(org, 'GET', `/contacts/${created.body.id}/topics`)).body.data as Array<{ id: string; subscription: string }>;
    expect(Object.fromEntries(topics.map((t) => [t.id, t.subscription]))).toEqual({ [news]: 'opt_out', [offers]: 'opt_in', [events]: 'opt_in' });
    const refused = await call(org, 'POST', '/contacts', { email: 'bob@example.net', topics: [{ id: '01900000-0000-7000-8000-000000000000', subscription: 'opt_in' }] });
    expect(refused.status).toBe(404);
    expect((await call(org, 'GET', '/contacts/bob%40example.net')).status).toBe(404);
  });
});
