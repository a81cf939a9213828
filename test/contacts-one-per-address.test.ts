import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contacts, organizations } from '@/db/schema';
import { startTestApp, type TestApp } from './support/app';

// Issue 35: one contact per address in an organization, audiences as memberships that keep the
// spec's own subscription. The spec's routes answer as before; what changes is that an address in
// two audiences is one contact (one id, one name), and what deleting does to it.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const db = () => app.runtime.deps.db;

async function audienceOf(key: string, name: string): Promise<string> {
  const created = await app.request('POST', '/api/audiences', { key, body: { name } });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}
const add = (key: string, audience: string, body: Record<string, unknown>) => app.request('POST', `/api/audiences/${audience}/contacts`, { key, body });
const get = (key: string, audience: string, contact: string) => app.request('GET', `/api/audiences/${audience}/contacts/${contact}`, { key });
const countOf = async (key: string, audience: string) => (await app.request('GET', `/api/audiences/${audience}`, { key })).body.contactCount as number;
const stored = async (organizationId: string) => {
  const [row] = await db().select({ count: organizations.contactCount }).from(organizations).where(eq(organizations.id, organizationId));
  const rows = await db().select({ email: contacts.email }).from(contacts).where(eq(contacts.organizationId, organizationId));
  // The kept count and the rows agree: the cap reads the count.
  expect(row!.count).toBe(rows.length);
  return rows.map((r) => r.email).sort();
};

describe('one contact per address', () => {
  it('is the same contact (id and name) in every audience, with a subscription of its own in each', async () => {
    const org = await app.createOrg();
    const [news, offers] = [await audienceOf(org.apiKey, 'News'), await audienceOf(org.apiKey, 'Offers')];
    const inNews = (await add(org.apiKey, news, { email: 'ada@example.net', name: 'Ada' })).body;
    const inOffers = await add(org.apiKey, offers, { email: 'ADA@example.net', subscribed: false });
    expect(inOffers.status).toBe(201);
    expect(inOffers.body).toMatchObject({ id: inNews.id, email: 'ada@example.net', name: 'Ada', subscribed: false });
    expect((await get(org.apiKey, news, inNews.id)).body).toMatchObject({ id: inNews.id, subscribed: true });
    // The name is the contact's: changed through one audience, read through the other.
    await app.request('PATCH', `/api/audiences/${offers}/contacts/${inNews.id}`, { key: org.apiKey, body: { name: 'Ada Lovelace' } });
    expect((await get(org.apiKey, news, inNews.id)).body).toMatchObject({ name: 'Ada Lovelace', subscribed: true });
    // Re-subscribing in one audience leaves the other's opt-out alone, and the reverse.
    await app.request('PATCH', `/api/audiences/${news}/contacts/${inNews.id}`, { key: org.apiKey, body: { subscribed: false } });
    await app.request('PATCH', `/api/audiences/${offers}/contacts/${inNews.id}`, { key: org.apiKey, body: { subscribed: true } });
    expect((await get(org.apiKey, news, inNews.id)).body.subscribed).toBe(false);
    expect((await get(org.apiKey, offers, inNews.id)).body.subscribed).toBe(true);
    // Each audience counts its members; the organization stores one contact.
    expect([await countOf(org.apiKey, news), await countOf(org.apiKey, offers)]).toEqual([1, 1]);
    expect(await stored(org.organizationId)).toEqual(['ada@example.net']);
    // A contact not in an audience is not found there, though the organization has it.
    const third = await audienceOf(org.apiKey, 'Third');
    expect((await get(org.apiKey, third, inNews.id)).status).toBe(404);
    // Another organization with the same address has a contact of its own.
    const other = await app.createOrg();
    const theirs = (await add(other.apiKey, await audienceOf(other.apiKey, 'Theirs'), { email: 'ada@example.net' })).body;
    expect(theirs.id).not.toBe(inNews.id);
    expect((await get(other.apiKey, news, inNews.id)).status).toBe(404);
  });

  it('removed from one audience stays in the others; removed from its last, it is deleted', async () => {
    const org = await app.createOrg();
    const [news, offers] = [await audienceOf(org.apiKey, 'News'), await audienceOf(org.apiKey, 'Offers')];
    const ada = (await add(org.apiKey, news, { email: 'ada@example.net' })).body;
    await add(org.apiKey, offers, { email: 'ada@example.net' });
    await add(org.apiKey, news, { email: 'bob@example.net' });
    expect((await app.request('DELETE', `/api/audiences/${news}/contacts/${ada.id}`, { key: org.apiKey })).status).toBe(200);
    expect((await get(org.apiKey, news, ada.id)).status).toBe(404);
    expect((await get(org.apiKey, offers, ada.id)).body).toMatchObject({ id: ada.id, subscribed: true });
    expect(await stored(org.organizationId)).toEqual(['ada@example.net', 'bob@example.net']);
    const gone = await app.request('POST', `/api/audiences/${offers}/contacts/batch-delete`, { key: org.apiKey, body: { ids: [ada.id] } });
    expect(gone.body).toEqual({ deleted: 1, notFound: 0 });
    expect(await stored(org.organizationId)).toEqual(['bob@example.net']);
    expect([await countOf(org.apiKey, news), await countOf(org.apiKey, offers)]).toEqual([1, 0]);
  });

  it('deleting an audience deletes its memberships and the contacts left in no audience; one also elsewhere stays there', async () => {
    const org = await app.createOrg();
    const [news, offers] = [await audienceOf(org.apiKey, 'News'), await audienceOf(org.apiKey, 'Offers')];
    await app.request('POST', `/api/audiences/${news}/contacts/batch`, { key: org.apiKey, body: { contacts: [{ email: 'ada@example.net' }, { email: 'bob@example.net' }, { email: 'cy@example.net' }] } });
    const ada = (await add(org.apiKey, offers, { email: 'ada@example.net', subscribed: false })).body;
    expect((await app.request('DELETE', `/api/audiences/${news}`, { key: org.apiKey })).status).toBe(200);
    expect(await stored(org.organizationId)).toEqual(['ada@example.net']);
    expect((await get(org.apiKey, offers, ada.id)).body).toMatchObject({ email: 'ada@example.net', subscribed: false });
    expect(await countOf(org.apiKey, offers)).toBe(1);
    // The usage read (and the plan's cap) counts the one contact left.
    const usage = await app.request('GET', '/api/usage', { key: org.apiKey });
    expect(usage.body.caps.contacts.used).toBe(1);
  });

  it('imports into a second audience without counting the addresses the organization holds against the cap', async () => {
    const org = await app.createOrg({ plan: 'free' });
    const [news, offers] = [await audienceOf(org.apiKey, 'News'), await audienceOf(org.apiKey, 'Offers')];
    const rows = Array.from({ length: 1000 }, (_, i) => ({ email: `r${i}@example.net` }));
    expect((await app.request('POST', `/api/audiences/${news}/contacts/batch`, { key: org.apiKey, body: { contacts: rows } })).status).toBe(200);
    const again = await app.request('POST', `/api/audiences/${offers}/contacts/batch`, { key: org.apiKey, body: { contacts: rows } });
    expect(again.body).toMatchObject({ created: 1000, updated: 0, unchanged: 0 });
    const past = await add(org.apiKey, offers, { email: 'one-more@example.net' });
    expect(past.body.code).toBe('PLAN_LIMIT_EXCEEDED');
    expect((await stored(org.organizationId)).length).toBe(1000);
  });
});
