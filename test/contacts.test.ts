import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { audienceMemberships, contacts, events, organizations, webhookDeliveries } from '@/db/schema';
import { mapRecords, EMPTY_MAPPING } from '@/app/(dashboard)/audiences/[id]/import/contact-rows';
import { parseCsv } from '@/app/lib/csv';
import { createAudience } from '@/server/services/audiences/crud';
import { registerAudienceHold } from '@/server/services/audiences/holds';
import { updateContact } from '@/server/services/contacts/change';
import { upsertContacts } from '@/server/services/contacts/upsert';
import type { Principal } from '@/server/services/shared/principal';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const db = () => app.runtime.deps.db;

async function audienceOf(key: string, name = 'Newsletter'): Promise<string> {
  const created = await app.request('POST', '/api/audiences', { key, body: { name } });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

const batch = (key: string, audience: string, rows: unknown[]) => app.request('POST', `/api/audiences/${audience}/contacts/batch`, { key, body: { contacts: rows } });
const list = (key: string, audience: string, query = '') => app.request('GET', `/api/audiences/${audience}/contacts${query}`, { key });
const countOf = async (key: string, audience: string) => (await app.request('GET', `/api/audiences/${audience}`, { key })).body.contactCount as number;

describe('a contact by its address', () => {
  it('is read, changed and deleted at /audiences/{id}/contacts/{email}, URL-encoded and in any spelling', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    const created = (await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'ada@example.net', name: 'Ada' } })).body;
    const byAddress = await app.request('GET', `/api/audiences/${audience}/contacts/${encodeURIComponent('Ada@Example.NET')}`, { key: org.apiKey });
    expect(byAddress.status, byAddress.text).toBe(200);
    expect(byAddress.body).toEqual(created);
    const changed = await app.request('PATCH', `/api/audiences/${audience}/contacts/ada%40example.net`, { key: org.apiKey, body: { subscribed: false } });
    expect(changed.body).toMatchObject({ id: created.id, subscribed: false });
    expect((await app.request('GET', `/api/audiences/${audience}/contacts/nobody%40example.net`, { key: org.apiKey })).body).toEqual({ error: 'Contact not found', code: 'NOT_FOUND' });
    expect((await app.request('GET', `/api/audiences/${audience}/contacts/nope`, { key: org.apiKey })).body).toEqual({ error: 'contactId: must be a contact id (UUID) or an email address', code: 'VALIDATION_ERROR' });
    const other = await app.createOrg();
    expect((await app.request('GET', `/api/audiences/${audience}/contacts/ada%40example.net`, { key: other.apiKey })).status).toBe(404);
    expect((await app.request('DELETE', `/api/audiences/${audience}/contacts/ada%40example.net`, { key: org.apiKey })).status).toBe(200);
    expect((await app.request('GET', `/api/audiences/${audience}/contacts/${created.id}`, { key: org.apiKey })).status).toBe(404);
  });
});

describe('audiences', () => {
  it('creates, lists newest first with counts, and deletes an audience with its contacts', async () => {
    const org = await app.createOrg();
    const first = await audienceOf(org.apiKey, 'First');
    const second = await audienceOf(org.apiKey, 'Second');
    await batch(org.apiKey, first, [{ email: 'a@example.net' }, { email: 'b@example.net' }]);
    const listed = await app.request('GET', '/api/audiences', { key: org.apiKey });
    expect(listed.body.data).toEqual([
      { id: second, name: 'Second', contactCount: 0, sunsetAfterMonths: null, sunsetReengagement: null, createdAt: expect.any(String) },
      { id: first, name: 'First', contactCount: 2, sunsetAfterMonths: null, sunsetReengagement: null, createdAt: expect.any(String) },
    ]);
    expect((await app.request('DELETE', `/api/audiences/${first}`, { key: org.apiKey })).body).toEqual({ message: 'Audience deleted' });
    expect(await db().select().from(contacts)).toHaveLength(0);
    expect((await app.request('GET', `/api/audiences/${first}`, { key: org.apiKey })).body.code).toBe('NOT_FOUND');
    expect((await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: '  ' } })).body).toEqual({ error: expect.stringMatching(/name/), code: 'VALIDATION_ERROR' });
  });

  it('refuses to delete an audience something holds, with 409 and the reason', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    const release = registerAudienceHold(async (_tx, id) => (id === audience ? 'the broadcast "November news" is sending to it' : null));
    try {
      const refused = await app.request('DELETE', `/api/audiences/${audience}`, { key: org.apiKey });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: 'The audience cannot be deleted: the broadcast "November news" is sending to it', code: 'CONFLICT' });
    } finally {
      release();
    }
    expect((await app.request('DELETE', `/api/audiences/${audience}`, { key: org.apiKey })).status).toBe(200);
  });
});

describe('contacts', () => {
  it('creates by upsert on the lowercased address, reads, changes and deletes a contact', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    const created = await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'Ada@Example.NET', name: 'Ada' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), email: 'ada@example.net', name: 'Ada', subscribed: true, pending: false, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const again = await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'ADA@example.net', name: 'Ada Lovelace' } });
    expect(again.body).toMatchObject({ id: created.body.id, name: 'Ada Lovelace' });
    const unchanged = await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'ada@example.net' } });
    expect(unchanged.body).toMatchObject({ id: created.body.id, name: 'Ada Lovelace', subscribed: true });
    expect(await countOf(org.apiKey, audience)).toBe(1);
    const idn = await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'jürgen@bücher.de' } });
    expect(idn.body.email).toBe('jürgen@xn--bcher-kva.de');
    const path = `/api/audiences/${audience}/contacts/${created.body.id}`;
    expect((await app.request('GET', path, { key: org.apiKey })).body.email).toBe('ada@example.net');
    const patched = await app.request('PATCH', path, { key: org.apiKey, body: { subscribed: false, name: null } });
    expect(patched.body).toMatchObject({ subscribed: false, name: null });
    // A create never removes an opt-out; PATCH does, on purpose.
    await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'ada@example.net', subscribed: true } });
    expect((await app.request('GET', path, { key: org.apiKey })).body.subscribed).toBe(false);
    expect((await app.request('PATCH', path, { key: org.apiKey, body: { subscribed: true } })).body.subscribed).toBe(true);
    expect((await app.request('DELETE', path, { key: org.apiKey })).body).toEqual({ message: 'Contact deleted' });
    expect((await app.request('DELETE', path, { key: org.apiKey })).body.code).toBe('NOT_FOUND');
    expect(await countOf(org.apiKey, audience)).toBe(1);
  });

  it('refuses addresses a send would refuse, naming the field', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    for (const email of ['not-an-address', 'a@b', 'Ada <ada@example.net>', 'ada@[127.0.0.1]', '']) {
      const answer = await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email } });
      expect(answer.status, email).toBe(400);
      expect(answer.body).toEqual({ error: expect.stringMatching(/^email: /), code: 'VALIDATION_ERROR' });
    }
    const unknown = await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'a@example.net', colour: 'red' } });
    expect(unknown.body).toEqual({ error: expect.stringMatching(/colour/), code: 'VALIDATION_ERROR' });
  });

  it('lists newest first in cursor pages, searches a substring in any case, filters on the subscription', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    const rows = Array.from({ length: 25 }, (_, i) => ({ email: `user${String(i).padStart(2, '0')}@example.net`, subscribed: i % 5 !== 0 }));
    rows.push({ email: 'ada_lovelace@math.example.org', subscribed: true }, { email: 'adaxlovelace@math.example.org', subscribed: true }, { email: 'percent%sign@example.org', subscribed: true });
    for (const row of rows) await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: row });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(org.apiKey, audience, `?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.data.map((c: { email: string }) => c.email));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(rows.map((row) => row.email).reverse());
    expect((await list(org.apiKey, audience, '?search=USER1')).body.data).toHaveLength(10);
    expect((await list(org.apiKey, audience, '?search=ada_love')).body.data.map((c: { email: string }) => c.email)).toEqual(['ada_lovelace@math.example.org']);
    expect((await list(org.apiKey, audience, `?search=${encodeURIComponent('%sign')}`)).body.data).toHaveLength(1);
    expect((await list(org.apiKey, audience, '?subscribed=false&limit=1000')).body.data).toHaveLength(5);
    expect((await list(org.apiKey, audience, '?subscribed=true&search=user&limit=1000')).body.data).toHaveLength(20);
    expect((await list(org.apiKey, audience, '?subscribed=yes')).body).toEqual({ error: expect.stringMatching(/subscribed/), code: 'VALIDATION_ERROR' });
    expect((await list(org.apiKey, audience, '?limit=1001')).body.code).toBe('VALIDATION_ERROR');
  });

  it('imports a batch in one statement: de-duplicated, counted, invalid rows listed, opt-outs kept', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'opted-out@example.net', subscribed: false } });
    await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'named@example.net', name: 'Old' } });
    await app.request('POST', `/api/audiences/${audience}/contacts`, { key: org.apiKey, body: { email: 'same@example.net', name: 'Same' } });
    const rows = [
      ...Array.from({ length: 994 }, (_, i) => ({ email: `new${i}@example.net` })),
      { email: 'OPTED-OUT@example.net', subscribed: true },
      { email: 'named@example.net', name: 'New' },
      { email: 'same@example.net', name: 'Same' },
      { email: 'broken' },
      { email: 'new0@EXAMPLE.net', name: 'Dup' },
      { email: 'also broken@example.net' },
    ];
    const answer = await batch(org.apiKey, audience, rows);
    expect(answer.body).toEqual({
      created: 994,
      updated: 1,
      unchanged: 2,
      errors: [
        { index: 997, email: 'broken', error: expect.any(String) },
        { index: 999, email: 'also broken@example.net', error: expect.any(String) },
      ],
    });
    expect(await countOf(org.apiKey, audience)).toBe(997);
    const [optedOut] = await db()
      .select({ subscribed: audienceMemberships.subscribed })
      .from(audienceMemberships)
      .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
      .where(and(eq(audienceMemberships.audienceId, audience), eq(contacts.email, 'opted-out@example.net')));
    expect(optedOut!.subscribed).toBe(false);
    const [dup] = await db().select().from(contacts).where(eq(contacts.email, 'new0@example.net'));
    expect(dup!.name).toBe('Dup');
    // The same import again changes nothing.
    expect((await batch(org.apiKey, audience, rows)).body).toMatchObject({ created: 0, updated: 0, unchanged: 997 });
    const tooMany = await batch(org.apiKey, audience, Array.from({ length: 1_001 }, (_, i) => ({ email: `x${i}@example.net` })));
    expect(tooMany.body).toEqual({ error: expect.stringMatching(/contacts: at most 1000/), code: 'VALIDATION_ERROR' });
  });

  it('deletes a batch by id, counting what was not there', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    await batch(org.apiKey, audience, [{ email: 'a@example.net' }, { email: 'b@example.net' }, { email: 'c@example.net' }]);
    const ids = (await list(org.apiKey, audience)).body.data.map((c: { id: string }) => c.id);
    const other = await audienceOf(org.apiKey, 'Other');
    await batch(org.apiKey, other, [{ email: 'z@example.net' }]);
    const otherId = (await list(org.apiKey, other)).body.data[0].id;
    const answer = await app.request('POST', `/api/audiences/${audience}/contacts/batch-delete`, { key: org.apiKey, body: { ids: [ids[0], ids[1], ids[1], otherId, '01900000-0000-7000-8000-000000000000'] } });
    expect(answer.body).toEqual({ deleted: 2, notFound: 2 });
    expect(await countOf(org.apiKey, audience)).toBe(1);
    expect(await countOf(org.apiKey, other)).toBe(1);
    const tooMany = await app.request('POST', `/api/audiences/${audience}/contacts/batch-delete`, { key: org.apiKey, body: { ids: Array.from({ length: 1_001 }, () => ids[0]) } });
    expect(tooMany.body.code).toBe('VALIDATION_ERROR');
  });

  it('holds the contact cap across audiences exactly, even under concurrent imports, and never deletes for it', async () => {
    const org = await app.createOrg({ plan: 'free' });
    const [one, two] = [await audienceOf(org.apiKey, 'One'), await audienceOf(org.apiKey, 'Two')];
    const rows = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@example.net` }));
    const answers = await Promise.all([batch(org.apiKey, one, rows('a', 600)), batch(org.apiKey, two, rows('b', 600))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    const refused = answers.find((a) => a.status === 403)!;
    expect(refused.body).toEqual({ error: expect.stringMatching(/1,000 contacts across all audiences; 400 slots are left and this request adds 600/), code: 'PLAN_LIMIT_EXCEEDED' });
    expect((await countOf(org.apiKey, one)) + (await countOf(org.apiKey, two))).toBe(600);
    // Either import may win the race; what follows works on the audience that holds the 600.
    const oneWon = answers[0].status === 200;
    const [filled, empty, prefix] = oneWon ? [one, two, 'a'] : [two, one, 'b'];
    // Updating existing contacts adds nothing, so it is allowed at the cap.
    expect((await batch(org.apiKey, filled, [...rows(prefix, 400), ...rows('c', 400)])).status).toBe(200);
    const full = await app.request('POST', `/api/audiences/${empty}/contacts`, { key: org.apiKey, body: { email: 'one-more@example.net' } });
    expect(full.body).toEqual({ error: expect.stringMatching(/0 slots are left/), code: 'PLAN_LIMIT_EXCEEDED' });
    // The cap counts contacts, one per address: the same addresses in another audience add none.
    expect((await batch(org.apiKey, empty, rows(prefix, 10))).status).toBe(200);
    expect(await countOf(org.apiKey, empty)).toBe(10);
    await app.request('PATCH', `/api/audiences/${filled}/contacts/${(await list(org.apiKey, filled)).body.data[0].id}`, { key: org.apiKey, body: { name: 'Still fine' } });
    // A downgrade past the cap deletes nothing.
    await db().update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    expect(await db().select().from(contacts)).toHaveLength(1_000);
  });

  it('records contact events for webhooks, a batch of 1,000 in the same statement', async () => {
    const org = await app.createOrg();
    app.dns.set('hooks.example.com', 'A', ['93.184.216.34']);
    const hook = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: 'https://hooks.example.com/', events: ['contact.created', 'contact.updated', 'contact.deleted'] } });
    expect(hook.status).toBe(201);
    const audience = await audienceOf(org.apiKey);
    const rows = Array.from({ length: 1_000 }, (_, i) => ({ email: `n${i}@example.net` }));
    await batch(org.apiKey, audience, rows);
    const byType = async () => {
      const all = await db().select().from(events);
      return all.reduce<Record<string, number>>((counts, event) => ({ ...counts, [event.type]: (counts[event.type] ?? 0) + 1 }), {});
    };
    // Each contact's two consent-ledger entries (the organization, the audience) are contact.consent_changed events too; the endpoint did not ask for them.
    expect(await byType()).toEqual({ 'contact.created': 1_000, 'contact.consent_changed': 2_000 });
    expect(await db().select().from(webhookDeliveries)).toHaveLength(1_000);
    const [one] = (await list(org.apiKey, audience, '?limit=1')).body.data;
    await app.request('PATCH', `/api/audiences/${audience}/contacts/${one.id}`, { key: org.apiKey, body: { subscribed: false } });
    await app.request('PATCH', `/api/audiences/${audience}/contacts/${one.id}`, { key: org.apiKey, body: { subscribed: false } });
    await app.request('DELETE', `/api/audiences/${audience}/contacts/${one.id}`, { key: org.apiKey });
    expect(await byType()).toEqual({ 'contact.created': 1_000, 'contact.consent_changed': 2_001, 'contact.updated': 1, 'contact.deleted': 1 });
    const [deleted] = await db().select().from(events).where(eq(events.type, 'contact.deleted'));
    expect(deleted!.data).toEqual({ contactId: one.id, audienceId: audience, email: one.email, name: null, subscribed: false });
  });

  it('lets a test key read audiences and contacts but not change them', async () => {
    const org = await app.createOrg();
    const audience = await audienceOf(org.apiKey);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await list(testKey, audience)).status).toBe(200);
    expect((await batch(testKey, audience, [{ email: 'a@example.net' }])).body).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
  });
});

describe('the opt-out rule of an import, at the service', () => {
  const principalOf = (organizationId: string): Principal => ({
    organizationId, permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId: null, plan: 'free', rateLimitOverride: null,
  });
  const stored = async (audienceId: string) =>
    Object.fromEntries(
      (
        await db()
          .select({ email: contacts.email, name: contacts.name, subscribed: audienceMemberships.subscribed })
          .from(audienceMemberships)
          .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
          .where(eq(audienceMemberships.audienceId, audienceId))
      ).map((row) => [row.email, { name: row.name, subscribed: row.subscribed }]),
    );

  it('adds an opt-out and never removes one, whatever the CSV says, from the file to the stored contacts', async () => {
    const { organizationId } = await app.createOrg();
    const principal = principalOf(organizationId);
    const deps = app.runtime.deps;
    const audience = await createAudience(deps, principal, { name: 'Newsletter' });
    await upsertContacts(deps, principal, audience.id, [
      { email: 'left@example.net', name: 'Left', subscribed: false },
      { email: 'stays@example.net', name: 'Stays' },
      { email: 'leaves@example.net' },
    ]);

    // A Resend export: names in two columns, and `unsubscribed` whose yes is an opt-out.
    const file = [
      'email,first_name,last_name,unsubscribed',
      'left@example.net,Lea,Left,false', // says subscribed: the opt-out stays, the name changes
      'stays@example.net,,,', // says nothing: nothing changes
      'leaves@example.net,Lee,Leaves,true', // opts out now
      'new-in@example.net,Nia,New,false',
      'new-out@example.net,Noa,,true',
    ].join('\n');
    const { records } = parseCsv(file);
    const { rows, skipped } = mapRecords(records.slice(1), 4, { ...EMPTY_MAPPING, email: 0, firstName: 1, lastName: 2, subscription: 3, subscriptionColumn: 'unsubscribed' });
    expect(skipped).toEqual([]);
    const answer = await upsertContacts(deps, principal, audience.id, rows.map((row) => row.contact));
    expect(answer).toMatchObject({ created: 2, updated: 2, unchanged: 1, errors: [] });
    expect(await stored(audience.id)).toEqual({
      'left@example.net': { name: 'Lea Left', subscribed: false },
      'stays@example.net': { name: 'Stays', subscribed: true },
      'leaves@example.net': { name: 'Lee Leaves', subscribed: false },
      'new-in@example.net': { name: 'Nia New', subscribed: true },
      'new-out@example.net': { name: 'Noa', subscribed: false },
    });

    // The same file again, and one that says everyone is subscribed: no opt-out is removed.
    expect(await upsertContacts(deps, principal, audience.id, rows.map((row) => row.contact))).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    const everyoneIn = ['left', 'stays', 'leaves', 'new-in', 'new-out'].map((local) => ({ email: `${local}@example.net`, subscribed: true }));
    expect(await upsertContacts(deps, principal, audience.id, everyoneIn)).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    const subscribed = Object.fromEntries(Object.entries(await stored(audience.id)).map(([email, contact]) => [email, contact.subscribed]));
    expect(subscribed).toEqual({ 'left@example.net': false, 'stays@example.net': true, 'leaves@example.net': false, 'new-in@example.net': true, 'new-out@example.net': false });

    // Only an explicit change of one contact subscribes someone again.
    const [left] = await db().select().from(contacts).where(eq(contacts.email, 'left@example.net'));
    expect((await updateContact(deps, principal, audience.id, left!.id, { subscribed: true })).subscribed).toBe(true);
  });
});
