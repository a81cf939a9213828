import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, contactProperties, topics } from '@/db/schema';
import { CONTACT_PROPERTY_LIMIT } from '@/server/services/contact-properties/crud';
import { propertyValueOf } from '@/server/services/contact-properties/values';
import { TOPIC_LIMIT } from '@/server/services/topics/crud';
import { newId } from '@/server/ids';
import { startTestApp, type TestApp } from './support/app';

// Issue 35, items 4, 5 and 6 (in part): contact properties, topics and segments as resources of their
// own, in Resend's request shape and the spec's conventions. Values on contacts and topic
// subscriptions come with the one-contact-per-address model.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const db = () => app.runtime.deps.db;
const call = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => app.request(method, `/api${path}`, { key, body });
const auditOf = async (organizationId: string, type: 'contact_property' | 'topic') =>
  (await db().select({ action: auditEvents.action, label: auditEvents.targetLabel, details: auditEvents.details }).from(auditEvents).where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.targetType, type)))).map(
    (row) => [row.action, row.label, row.details],
  );

describe('contact properties', () => {
  it('are defined with a key, a type and a fallback, listed in the order defined, and keep key and type fixed', async () => {
    const org = await app.createOrg();
    const company = await call(org.apiKey, 'POST', '/contact-properties', { key: 'company', type: 'string', fallback_value: 'your company' });
    expect(company.status, company.text).toBe(201);
    expect(company.body).toEqual({ id: expect.any(String), key: 'company', type: 'string', fallbackValue: 'your company', createdAt: expect.any(String), updatedAt: expect.any(String) });
    app.clock.advance(1_000);
    const seats = await call(org.apiKey, 'POST', '/contact-properties', { key: 'seats', type: 'number' });
    expect(seats.body).toMatchObject({ key: 'seats', type: 'number', fallbackValue: null });

    const listed = await call(org.apiKey, 'GET', '/contact-properties');
    expect(listed.body.data.map((property: { key: string }) => property.key)).toEqual(['company', 'seats']);
    expect((await call(org.apiKey, 'GET', `/contact-properties/${seats.body.id}`)).body).toEqual(seats.body);

    const changed = await call(org.apiKey, 'PATCH', `/contact-properties/${seats.body.id}`, { fallback_value: 1 });
    expect(changed.body).toMatchObject({ fallbackValue: 1 });
    expect((await call(org.apiKey, 'PATCH', `/contact-properties/${seats.body.id}`, { fallback_value: null })).body).toMatchObject({ fallbackValue: null });
    // The key and the type are what stored values were checked against.
    const retyped = await call(org.apiKey, 'PATCH', `/contact-properties/${seats.body.id}`, { type: 'string' });
    expect(retyped.status).toBe(400);
    expect(retyped.body).toMatchObject({ code: 'VALIDATION_ERROR' });

    const ada = await call(org.apiKey, 'POST', '/contacts', { email: 'ada@example.com', properties: { company: 'Analytical Engines', seats: 3 } });
    expect(ada.status, ada.text).toBe(201);

    expect((await call(org.apiKey, 'DELETE', `/contact-properties/${company.body.id}`)).body).toEqual({ message: 'Contact property deleted' });
    expect((await call(org.apiKey, 'GET', `/contact-properties/${company.body.id}`)).status).toBe(404);
    // Its values went with it: made again, of another type, it starts with none.
    expect((await call(org.apiKey, 'GET', `/contacts/${ada.body.id}`)).body.properties).toEqual({ seats: 3 });
    expect((await call(org.apiKey, 'POST', '/contact-properties', { key: 'company', type: 'number' })).status).toBe(201);
    expect((await call(org.apiKey, 'GET', `/contacts/${ada.body.id}`)).body.properties).toEqual({ seats: 3 });
    expect(await auditOf(org.organizationId, 'contact_property')).toEqual(
      expect.arrayContaining([
        ['contact_property.created', 'company', { type: 'string' }],
        ['contact_property.updated', 'seats', { fallbackValue: { from: null, to: 1 } }],
        ['contact_property.deleted', 'company', {}],
      ]),
    );
  });

  it('refuse a key that is not letters, digits and underscores, a field every contact has, or one taken', async () => {
    const org = await app.createOrg();
    const refusal = async (body: unknown) => {
      const answer = await call(org.apiKey, 'POST', '/contact-properties', body);
      return [answer.status, answer.body.code, answer.body.error];
    };
    expect(await refusal({ key: 'first name', type: 'string' })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('letters, digits or underscores')]);
    expect(await refusal({ key: 'x'.repeat(51), type: 'string' })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('at most 50')]);
    expect(await refusal({ key: 'First_Name', type: 'string' })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('a field every contact has')]);
    expect(await refusal({ key: 'email', type: 'string' })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('a field every contact has')]);
    expect(await refusal({ key: 'plan', type: 'text' })).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining('string, number, boolean, date')]);
    expect(await refusal({ key: 'plan' })).toEqual([400, 'VALIDATION_ERROR', expect.any(String)]);
    expect((await call(org.apiKey, 'POST', '/contact-properties', { key: 'plan', type: 'string' })).status).toBe(201);
    expect(await refusal({ key: 'plan', type: 'number' })).toEqual([409, 'CONFLICT', 'A contact property with the key "plan" exists already']);
    // Keys are exact: another spelling is another property, as in Resend.
    expect((await call(org.apiKey, 'POST', '/contact-properties', { key: 'Plan', type: 'string' })).status).toBe(201);
  });

  it('check the fallback against the type, and keep dates as a day or a UTC date-time', async () => {
    const org = await app.createOrg();
    const refused = async (type: string, fallback: unknown) => (await call(org.apiKey, 'POST', '/contact-properties', { key: `k_${type}`, type, fallback_value: fallback })).body.error as string;
    expect(await refused('number', '12')).toBe('fallback_value: must be a number (the property is of type number)');
    expect(await refused('boolean', 'yes')).toBe('fallback_value: must be true or false (the property is of type boolean)');
    expect(await refused('string', 12)).toBe('fallback_value: must be a string (the property is of type string)');
    expect(await refused('date', '2026-02-30')).toBe('fallback_value: is not a real day (the property is of type date)');
    expect(await refused('date', '30/11/2026')).toContain('must be a date (YYYY-MM-DD)');
    expect(await refused('date', '2026-11-30T10:00:00')).toContain('with a time zone');

    const day = await call(org.apiKey, 'POST', '/contact-properties', { key: 'renews_on', type: 'date', fallback_value: '2026-12-01' });
    expect(day.body.fallbackValue).toBe('2026-12-01');
    const moment = await call(org.apiKey, 'POST', '/contact-properties', { key: 'signed_up_at', type: 'date', fallback_value: '2026-11-30T10:00:00+01:00' });
    expect(moment.body.fallbackValue).toBe('2026-11-30T09:00:00.000Z');
    const wrongLater = await call(org.apiKey, 'PATCH', `/contact-properties/${day.body.id}`, { fallback_value: true });
    expect([wrongLater.status, wrongLater.body.code]).toEqual([400, 'VALIDATION_ERROR']);

    expect(propertyValueOf('number', Number.NaN)).toEqual({ error: 'must be a number' });
    expect(propertyValueOf('string', 'x'.repeat(2_001))).toEqual({ error: 'must be at most 2000 characters' });
    expect(propertyValueOf('date', '2024-02-29')).toEqual({ value: '2024-02-29' });
  });

  it(`stop at ${CONTACT_PROPERTY_LIMIT} per organization, and are not another organization's`, async () => {
    const org = await app.createOrg();
    const other = await app.createOrg();
    const now = app.clock.now();
    await db()
      .insert(contactProperties)
      .values(Array.from({ length: CONTACT_PROPERTY_LIMIT }, (_, i) => ({ id: newId(), organizationId: org.organizationId, key: `p${i}`, type: 'string' as const, createdAt: now, updatedAt: now })));
    const over = await call(org.apiKey, 'POST', '/contact-properties', { key: 'one_more', type: 'string' });
    expect([over.status, over.body.code]).toEqual([409, 'CONFLICT']);
    expect(over.body.error).toContain(`${CONTACT_PROPERTY_LIMIT} contact properties`);
    expect((await call(other.apiKey, 'POST', '/contact-properties', { key: 'p0', type: 'string' })).status).toBe(201);
    expect((await call(other.apiKey, 'GET', '/contact-properties')).body.data).toHaveLength(1);
  });
});

describe('topics', () => {
  it('are made with a name, a description and a default subscription that stays as made', async () => {
    const org = await app.createOrg();
    const news = await call(org.apiKey, 'POST', '/topics', { name: 'Product news', description: 'What we shipped', default_subscription: 'opt_out' });
    expect(news.status, news.text).toBe(201);
    expect(news.body).toEqual({ id: expect.any(String), name: 'Product news', description: 'What we shipped', defaultSubscription: 'opt_out', createdAt: expect.any(String), updatedAt: expect.any(String) });
    app.clock.advance(1_000);
    const offers = await call(org.apiKey, 'POST', '/topics', { name: '  Offers ', default_subscription: 'opt_in' });
    expect(offers.body).toMatchObject({ name: 'Offers', description: null, defaultSubscription: 'opt_in' });
    expect((await call(org.apiKey, 'GET', '/topics')).body.data.map((topic: { name: string }) => topic.name)).toEqual(['Product news', 'Offers']);

    const renamed = await call(org.apiKey, 'PATCH', `/topics/${offers.body.id}`, { name: 'Special offers', description: 'Now and then' });
    expect(renamed.body).toMatchObject({ name: 'Special offers', description: 'Now and then', defaultSubscription: 'opt_in' });
    expect((await call(org.apiKey, 'PATCH', `/topics/${offers.body.id}`, { description: null })).body.description).toBeNull();
    const flipped = await call(org.apiKey, 'PATCH', `/topics/${offers.body.id}`, { default_subscription: 'opt_out' });
    expect([flipped.status, flipped.body.code]).toEqual([400, 'VALIDATION_ERROR']);

    expect((await call(org.apiKey, 'DELETE', `/topics/${news.body.id}`)).body).toEqual({ message: 'Topic deleted' });
    expect((await call(org.apiKey, 'GET', `/topics/${news.body.id}`)).status).toBe(404);
    expect(await auditOf(org.organizationId, 'topic')).toEqual(
      expect.arrayContaining([
        ['topic.created', 'Product news', { defaultSubscription: 'opt_out' }],
        ['topic.updated', 'Special offers', { name: { from: 'Offers', to: 'Special offers' }, description: { from: null, to: 'Now and then' } }],
        ['topic.deleted', 'Product news', {}],
      ]),
    );
  });

  it('refuse a name another topic has in any case, on create and on rename, and a missing default', async () => {
    const org = await app.createOrg();
    const news = await call(org.apiKey, 'POST', '/topics', { name: 'Product news', default_subscription: 'opt_in' });
    const offers = await call(org.apiKey, 'POST', '/topics', { name: 'Offers', default_subscription: 'opt_in' });
    const again = await call(org.apiKey, 'POST', '/topics', { name: 'PRODUCT NEWS', default_subscription: 'opt_out' });
    expect([again.status, again.body.code, again.body.error]).toEqual([409, 'CONFLICT', 'A topic named "PRODUCT NEWS" exists already (names are compared without regard to case)']);
    const clash = await call(org.apiKey, 'PATCH', `/topics/${offers.body.id}`, { name: 'product News' });
    expect([clash.status, clash.body.code]).toEqual([409, 'CONFLICT']);
    // A topic may change the case of its own name.
    expect((await call(org.apiKey, 'PATCH', `/topics/${news.body.id}`, { name: 'Product News' })).body.name).toBe('Product News');
    expect((await call(org.apiKey, 'POST', '/topics', { name: 'Digest' })).status).toBe(400);
    expect((await call(org.apiKey, 'POST', '/topics', { name: '', default_subscription: 'opt_in' })).body.error).toContain('must not be empty');
    expect((await call(org.apiKey, 'POST', '/topics', { name: 'Digest', default_subscription: 'weekly' })).body.error).toContain('opt_in, opt_out');
  });

  it(`stop at ${TOPIC_LIMIT} per organization`, async () => {
    const org = await app.createOrg();
    const now = app.clock.now();
    await db()
      .insert(topics)
      .values(Array.from({ length: TOPIC_LIMIT }, (_, i) => ({ id: newId(), organizationId: org.organizationId, name: `Topic ${i}`, defaultSubscription: 'opt_in' as const, createdAt: now, updatedAt: now })));
    const over = await call(org.apiKey, 'POST', '/topics', { name: 'One more', default_subscription: 'opt_in' });
    expect([over.status, over.body.code]).toEqual([409, 'CONFLICT']);
  });
});

describe('segments', () => {
  it('are the audiences under Resend’s name: made in one, read and changed in the other', async () => {
    const org = await app.createOrg();
    const segment = await call(org.apiKey, 'POST', '/segments', { name: 'Customers' });
    expect(segment.status, segment.text).toBe(201);
    // The audience's fields, and a segment's own: a list has no rules.
    expect(segment.body).toEqual({ id: expect.any(String), name: 'Customers', contactCount: 0, rules: null, matchingNow: null, rulesEvaluatedAt: null, sunsetAfterMonths: null, sunsetReengagement: null, createdAt: expect.any(String) });
    expect((await call(org.apiKey, 'GET', `/audiences/${segment.body.id}`)).body).toEqual({ id: segment.body.id, name: 'Customers', contactCount: 0, sunsetAfterMonths: null, sunsetReengagement: null, createdAt: segment.body.createdAt });

    const added = await call(org.apiKey, 'POST', `/audiences/${segment.body.id}/contacts`, { email: 'Ada@Example.net', name: 'Ada' });
    expect(added.status).toBe(201);
    const page = await call(org.apiKey, 'GET', `/segments/${segment.body.id}/contacts?limit=10`);
    expect(page.body).toEqual({ data: [expect.objectContaining({ id: added.body.id, email: 'ada@example.net', name: 'Ada', subscribed: true })], nextCursor: null });
    expect((await call(org.apiKey, 'GET', `/segments/${segment.body.id}`)).body.contactCount).toBe(1);
    expect((await call(org.apiKey, 'GET', '/segments')).body.data).toEqual([expect.objectContaining({ id: segment.body.id, contactCount: 1 })]);
    expect((await call(org.apiKey, 'GET', `/segments/${segment.body.id}/contacts?subscribed=maybe`)).status).toBe(400);

    expect((await call(org.apiKey, 'DELETE', `/segments/${segment.body.id}`)).body).toEqual({ message: 'Segment deleted' });
    expect((await call(org.apiKey, 'GET', `/audiences/${segment.body.id}`)).status).toBe(404);
    expect((await call(org.apiKey, 'GET', `/segments/${segment.body.id}/contacts`)).status).toBe(404);
  });
});
