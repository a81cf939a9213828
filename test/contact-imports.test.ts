import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { auditEvents, audienceMemberships, contactImportChunks, contactImports, contacts, contactTopics, events, organizations } from '@/db/schema';
import { functionsFor } from '@/inngest/functions';
import type { Deps } from '@/server/deps';
import { newId } from '@/server/ids';
import { importBatch } from '@/server/services/contact-imports/batch';
import { CHUNK_CHARS } from '@/server/services/contact-imports/receive';
import { sweepContactImports } from '@/server/services/contact-imports/run';
import { startTestApp, type TestApp } from './support/app';
import { importForm, uploadImport } from './support/contact-imports';
import { keyFor } from './support/keys';

// Issue 35 item 8: contacts imported from a CSV file as a job, in Resend's request shape
// (multipart/form-data), through the real HTTP server and the real database.

const MAX_BYTES = 1024 * 1024;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { CONTACT_IMPORT_MAX_BYTES: String(MAX_BYTES) } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());

type Org = { organizationId: string; apiKey: string };
const call = (org: Org, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => app.request(method, `/api${path}`, { key: org.apiKey, body });
const segmentOf = async (org: Org, name: string) => (await call(org, 'POST', '/segments', { name })).body.id as string;
const readImport = async (org: Org, id: string) => (await call(org, 'GET', `/contacts/imports/${id}`)).body;

/** Sweeps until no import has rows left, as the runner's loop does. */
async function drain(deps: Deps = app.runtime.deps): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const report = await sweepContactImports(deps);
    if (!report.outcomes.more) return;
  }
  throw new Error('the import did not finish');
}

async function imported(org: Org, csv: string, fields: Record<string, unknown> = {}) {
  const response = await uploadImport(app, org.apiKey, csv, fields);
  expect(response.status, response.text).toBe(202);
  expect(response.body).toEqual({ id: expect.any(String), status: 'queued' });
  expect(response.headers.get('location')).toBe(`http://127.0.0.1:3000/api/contacts/imports/${response.body.id}`);
  await drain();
  return readImport(org, response.body.id);
}

async function withProperties(org: Org) {
  for (const body of [{ key: 'plan', type: 'string' }, { key: 'seats', type: 'number' }, { key: 'trial', type: 'boolean' }, { key: 'renews', type: 'date' }]) {
    expect((await call(org, 'POST', '/contact-properties', body)).status).toBe(201);
  }
}

const eventTypes = async (org: Org) =>
  (await app.runtime.deps.db.select({ type: events.type, data: events.data }).from(events).where(eq(events.organizationId, org.organizationId))).map((e) => ({ type: e.type, audienceId: (e.data as { audienceId: string | null }).audienceId }));
const contactCount = async (org: Org) =>
  (await app.runtime.deps.db.select({ count: organizations.contactCount }).from(organizations).where(eq(organizations.id, org.organizationId)))[0]!.count;

describe('POST /contacts/imports', () => {
  it('imports a file by its column_map: names, typed property values and a segment, each bad row counted and listed by its line', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const news = await segmentOf(org, 'News');
    const csv = [
      'Email,Given name,Surname,Plan,Seats,Trial,Renews,Opted out',
      'Ada@Example.net,Ada,Lovelace,pro,3,yes,2027-01-31T10:00:00+01:00,no',
      'grace@example.net,Grace,Hopper,,12.5,false,2027-03-01,',
      'linus@example.net,Linus,,free,three,,,',
      'alan@example.net,Alan,Turing,,,maybe,,',
      'edsger@example.net,Edsger,,,,,2027-02-30,',
      'not-an-address,Nobody,,,,,,',
      ',Empty,,,,,,',
      'short@example.net,Short',
      'kurt@example.net,Kurt,Gödel,,,,,yes',
    ].join('\r\n');
    const result = await imported(org, csv, {
      column_map: {
        email: 'email',
        first_name: 'Given name',
        last_name: 3,
        unsubscribed: 'Opted out',
        properties: { plan: 'Plan', seats: { column: 'Seats', type: 'number' }, trial: 'Trial', renews: 'Renews' },
      },
      segments: [{ id: news }],
      on_conflict: 'upsert',
    });
    expect(result).toEqual({
      id: expect.any(String),
      status: 'completed',
      fileName: 'contacts.csv',
      segments: [news],
      onConflict: 'upsert',
      confirmedConsent: false,
      counts: { total: 9, created: 3, updated: 0, skipped: 0, failed: 6 },
      errors: [
        { row: 4, email: 'linus@example.net', error: 'properties.seats: "three" is not a number' },
        { row: 5, email: 'alan@example.net', error: 'properties.trial: "maybe" is not true or false' },
        { row: 6, email: 'edsger@example.net', error: 'properties.renews: is not a real day' },
        { row: 7, email: 'not-an-address', error: expect.stringMatching(/^email: /) },
        { row: 8, email: '', error: 'no email address' },
        { row: 9, email: 'short@example.net', error: 'has 2 columns instead of 8' },
      ],
      failure: null,
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect((await call(org, 'GET', '/contacts/ada@example.net')).body).toMatchObject({
      name: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      unsubscribed: false,
      properties: { plan: 'pro', seats: 3, trial: true, renews: '2027-01-31T09:00:00.000Z' },
    });
    expect((await call(org, 'GET', '/contacts/grace@example.net')).body).toMatchObject({ name: 'Grace Hopper', properties: { seats: 12.5, trial: false, renews: '2027-03-01' } });
    // Resend's unsubscribed column: a yes leaves everything.
    expect((await call(org, 'GET', '/contacts/kurt@example.net')).body).toMatchObject({ name: 'Kurt Gödel', unsubscribed: true });
    const members = (await call(org, 'GET', `/audiences/${news}/contacts`)).body.data as Array<{ email: string; subscribed: boolean }>;
    expect(members.map((member) => member.email).sort()).toEqual(['ada@example.net', 'grace@example.net', 'kurt@example.net']);
    expect((await call(org, 'GET', `/audiences/${news}`)).body.contactCount).toBe(3);
    expect(await contactCount(org)).toBe(3);
    // As POST /contacts with a segment: one event for the contact, one for its joining the segment.
    const types = await eventTypes(org);
    expect(types.filter((e) => e.type === 'contact.created' && e.audienceId === null)).toHaveLength(3);
    expect(types.filter((e) => e.type === 'contact.created' && e.audienceId === news)).toHaveLength(3);
    // Done: its file is gone, one audit entry says what it did and who asked.
    expect(await app.runtime.deps.db.select().from(contactImportChunks)).toEqual([]);
    const audit = await app.runtime.deps.db.select().from(auditEvents).where(and(eq(auditEvents.organizationId, org.organizationId), eq(auditEvents.action, 'contact.imported')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorKind: 'api_key', targetType: 'contact_import', targetId: result.id, targetLabel: 'contacts.csv' });
    expect(audit[0]!.details).toMatchObject({ status: 'completed', total: 9, created: 3, failed: 6, segments: 1, onConflict: 'upsert' });
  });

  it('reads the columns titled email, first_name, last_name and unsubscribed without a column_map (Resend\'s export), a semicolon file, and one without a header by position', async () => {
    const org = await app.createOrg();
    const resend = await imported(org, 'id,email,first_name,last_name,created_at,unsubscribed\n1,ada@example.net,Ada,Lovelace,2025-01-02,false\n2,grace@example.net,Grace,,2025-01-02,true\n');
    expect(resend.counts).toEqual({ total: 2, created: 2, updated: 0, skipped: 0, failed: 0 });
    expect((await call(org, 'GET', '/contacts/grace@example.net')).body).toMatchObject({ name: 'Grace', unsubscribed: true });
    const semicolons = await imported(org, '\uFEFFE-mail;Name\r\nlinus@example.net;"Torvalds; Linus"\r\n', { column_map: { email: 'e-mail', name: 'Name' } });
    expect(semicolons.counts.created).toBe(1);
    expect((await call(org, 'GET', '/contacts/linus@example.net')).body.name).toBe('Torvalds; Linus');
    const headless = await imported(org, 'Alan Turing,alan@example.net\nEdsger Dijkstra,edsger@example.net\n', { header: 'false', column_map: { email: 2, name: 1 } });
    expect(headless.counts).toEqual({ total: 2, created: 2, updated: 0, skipped: 0, failed: 0 });
    expect((await call(org, 'GET', '/contacts/alan@example.net')).body.name).toBe('Alan Turing');
  });

  it('on_conflict skip (the default) leaves an existing contact untouched and out of the segments; upsert updates it', async () => {
    const org = await app.createOrg();
    const news = await segmentOf(org, 'News');
    await call(org, 'POST', '/contacts', { email: 'ada@example.net', first_name: 'Ada' });
    const csv = 'email,first_name,last_name\nada@example.net,Augusta,King\ngrace@example.net,Grace,Hopper\ngrace@example.net,Grace,Murray\n';
    const skipped = await imported(org, csv, { segments: [news] });
    expect(skipped).toMatchObject({ onConflict: 'skip', counts: { total: 3, created: 1, updated: 0, skipped: 2, failed: 0 } });
    expect((await call(org, 'GET', '/contacts/ada@example.net')).body).toMatchObject({ name: 'Ada', firstName: 'Ada', lastName: null });
    // The second row of grace: she exists by then, and is left as the first row made her.
    expect((await call(org, 'GET', '/contacts/grace@example.net')).body).toMatchObject({ name: 'Grace Hopper' });
    expect(((await call(org, 'GET', '/contacts/ada@example.net/segments')).body.data as unknown[]).length).toBe(0);

    const upserted = await imported(org, csv, { segments: [news], on_conflict: 'upsert' });
    expect(upserted.counts).toEqual({ total: 3, created: 0, updated: 3, skipped: 0, failed: 0 });
    expect((await call(org, 'GET', '/contacts/ada@example.net')).body).toMatchObject({ name: 'Augusta King', firstName: 'Augusta', lastName: 'King' });
    // A later row of the same address wins.
    expect((await call(org, 'GET', '/contacts/grace@example.net')).body).toMatchObject({ name: 'Grace Murray' });
    expect((await call(org, 'GET', `/audiences/${news}`)).body.contactCount).toBe(2);
    expect(await contactCount(org)).toBe(2);
  });

  it('adds opt-outs and never removes one: everywhere (unsubscribed) and in its segments (subscription)', async () => {
    const org = await app.createOrg();
    const news = await segmentOf(org, 'News');
    const left = (await call(org, 'POST', '/contacts', { email: 'left@example.net', unsubscribed: true })).body.id;
    await call(org, 'POST', `/audiences/${news}/contacts`, { email: 'quiet@example.net', subscribed: false });
    await call(org, 'POST', `/audiences/${news}/contacts`, { email: 'leaving@example.net' });
    const csv = 'email,unsubscribed,opt-out\nleft@example.net,false,no\nquiet@example.net,false,no\nleaving@example.net,,yes\nnew@example.net,,\n';
    const result = await imported(org, csv, { on_conflict: 'upsert', segments: [news], column_map: { email: 'email', unsubscribed: 'unsubscribed', subscription: { column: 'opt-out', lists: 'unsubscribed' } } });
    expect(result.counts).toEqual({ total: 4, created: 1, updated: 3, skipped: 0, failed: 0 });
    expect((await call(org, 'GET', `/contacts/${left}`)).body.unsubscribed).toBe(true);
    const members = Object.fromEntries(((await call(org, 'GET', `/audiences/${news}/contacts`)).body.data as Array<{ email: string; subscribed: boolean }>).map((m) => [m.email, m.subscribed]));
    expect(members).toEqual({ 'left@example.net': true, 'quiet@example.net': false, 'leaving@example.net': false, 'new@example.net': true });
    expect((await call(org, 'GET', '/contacts/leaving@example.net')).body.unsubscribed).toBe(false);
  });

  it('stops at the batch that would pass the plan\'s contacts: failed, with the reason; what was stored before stays', async () => {
    const org = await app.createOrg({ plan: 'free' });
    const rows = Array.from({ length: 1_500 }, (_, i) => `c${i}@example.net`);
    const result = await imported(org, `email\n${rows.join('\n')}\n`);
    expect(result).toMatchObject({ status: 'failed', counts: { total: 1_500, created: 1_000, updated: 0, skipped: 0, failed: 0 }, failure: { code: 'PLAN_LIMIT_EXCEEDED' } });
    expect(result.failure.error).toContain('0 slots are left and the rows from line 1,002 on add 500');
    expect(await contactCount(org)).toBe(1_000);
    expect(await app.runtime.deps.db.select().from(contactImportChunks)).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses a form it cannot import, with the field and the reason, and keeps nothing of it', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const csv = 'email,name\nada@example.net,Ada\n';
    const cases: Array<[FormData | string, number, string]> = [
      [(() => { const form = new FormData(); form.append('column_map', '{}'); return form; })(), 400, 'file: required: the CSV file, in a form field named file'],
      [importForm(csv, { column_map: '{"email": ' }), 400, 'column_map: is not valid JSON'],
      [importForm(csv, { column_map: { email: 'Address' } }), 400, 'column_map.email: the file has no column titled "Address" (its columns: "email", "name")'],
      [importForm(csv, { column_map: { email: 3 } }), 400, 'column_map.email: the file has 2 columns; there is no column 3'],
      [importForm(csv, { column_map: { email: 'email', colour: 'name' } }), 400, expect.stringContaining('column_map: Unrecognized key')],
      [importForm(csv, { column_map: { properties: { colour: 'name' } } }), 400, 'column_map.properties.colour: no contact property has this key; create it first (POST /contact-properties)'],
      [importForm(csv, { column_map: { properties: { seats: { column: 'name', type: 'string' } } } }), 400, 'column_map.properties.seats: the property is of type number, not string'],
      [importForm('name\nAda\n'), 400, 'column_map.email: the file has no column titled "email" (its columns: "name"): name the address column in column_map'],
      [importForm(csv, { on_conflict: 'replace' }), 400, 'on_conflict: must be upsert or skip'],
      [importForm(csv, { segments: ['nope'] }), 400, expect.stringContaining('segments.0')],
      [importForm(csv, { topics: [{ id: '9a3c1e52-0b7d-4c1e-8f2a-6d5b4c3a2b10', subscription: 'opt_in' }, { id: '9a3c1e52-0b7d-4c1e-8f2a-6d5b4c3a2b10'.toUpperCase(), subscription: 'opt_out' }] }), 400, 'topics[1].id: the topic 9a3c1e52-0b7d-4c1e-8f2a-6d5b4c3a2b10 is given twice'],
      [importForm(csv, { topics: [{ id: '9a3c1e52-0b7d-4c1e-8f2a-6d5b4c3a2b10', subscription: 'maybe' }] }), 400, expect.stringContaining('topics.0.subscription')],
      [(() => { const form = importForm(csv); form.append('on_conflict', 'skip'); form.append('on_conflict', 'upsert'); return form; })(), 400, 'on_conflict: sent twice; send it once'],
      [importForm(csv, { colour: 'red' }), 400, 'colour: unknown field (the form takes file, column_map, segments, topics, on_conflict, header, confirmed_consent)'],
      [importForm(new Uint8Array([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0xff, 0xfe, 0x0a])), 400, 'file: is not UTF-8 text; save it as "CSV UTF-8"'],
      [importForm('email,name\n"ada@example.net,Ada\n'), 400, 'file: a quoted field is never closed: its record, from line 2, runs to the end of the file'],
      [importForm(''), 400, 'file: holds no records (it is empty)'],
      [JSON.stringify({ file: csv }), 415, 'Send the import as multipart/form-data: the CSV file in a field named file, and column_map, segments, topics and on_conflict beside it'],
    ];
    for (const [body, status, error] of cases) {
      const response =
        typeof body === 'string'
          ? await app.request('POST', '/api/contacts/imports', { key: org.apiKey, rawBody: body, headers: { 'content-type': 'application/json' } })
          : await app.request('POST', '/api/contacts/imports', { key: org.apiKey, body });
      expect({ status: response.status, body: response.body }, String(error)).toEqual({ status, body: { error, code: status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR' } });
    }
    expect(await app.runtime.deps.db.select().from(contactImports)).toEqual([]);
    expect(await app.runtime.deps.db.select().from(contactImportChunks)).toEqual([]);
  });

  it('answers 404 for a segment that is not the organization\'s, 403 to a test key before reading the file, 401 without a key', async () => {
    const org = await app.createOrg();
    const other = await app.createOrg({ name: 'Other' });
    const theirs = await segmentOf(other, 'Theirs');
    for (const segment of [theirs, newId()]) {
      const response = await uploadImport(app, org.apiKey, 'email\nada@example.net\n', { segments: [segment] });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `Segment ${segment} not found`, code: 'NOT_FOUND' });
    }
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const refused = await uploadImport(app, testKey, 'email\nada@example.net\n');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
    expect((await app.request('POST', '/api/contacts/imports', { body: importForm('email\n') })).status).toBe(401);
    expect(await app.runtime.deps.db.select().from(contactImports)).toEqual([]);
  });

  it("answers 404 for a topic that is not the organization's, and keeps nothing of the file", async () => {
    const org = await app.createOrg();
    const other = await app.createOrg({ name: 'Other' });
    const theirs = (await call(other, 'POST', '/topics', { name: 'Theirs', default_subscription: 'opt_in' })).body.id as string;
    for (const topic of [theirs, newId()]) {
      const response = await uploadImport(app, org.apiKey, 'email\nada@example.net\n', { topics: [{ id: topic, subscription: 'opt_in' }] });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `Topic ${topic} not found`, code: 'NOT_FOUND' });
    }
    expect(await app.runtime.deps.db.select().from(contactImports)).toEqual([]);
    expect(await app.runtime.deps.db.select().from(contactImportChunks)).toEqual([]);
  });

  it('refuses a file past CONTACT_IMPORT_MAX_BYTES with 413, whether its size is declared or not, and keeps nothing of it', async () => {
    const org = await app.createOrg();
    const big = `email,note\n${'x@example.net,'.padEnd(99, 'n')}\n`.repeat(Math.ceil(MAX_BYTES / 100) + 10);
    const declared = await uploadImport(app, org.apiKey, big);
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ error: `file: larger than ${MAX_BYTES.toLocaleString('en')} bytes; split it into several imports`, code: 'PAYLOAD_TOO_LARGE' });
    // Streamed without a length: read, stored and refused on the way.
    const form = importForm(big);
    const encoded = new Response(form);
    const streamed = await fetch(`${app.url}/api/contacts/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': encoded.headers.get('content-type')! },
      body: encoded.body,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ error: `file: larger than ${MAX_BYTES.toLocaleString('en')} bytes; split it into several imports`, code: 'PAYLOAD_TOO_LARGE' });
    expect(await app.runtime.deps.db.select().from(contactImports)).toEqual([]);
    expect(await app.runtime.deps.db.select().from(contactImportChunks)).toEqual([]);
  });

  it("answers 404 for another organization's import, and a segment an import is filling cannot be deleted until it ends", async () => {
    const org = await app.createOrg();
    const other = await app.createOrg({ name: 'Other' });
    const news = await segmentOf(org, 'News');
    const queued = await uploadImport(app, org.apiKey, 'email\nada@example.net\n', { segments: [news] });
    expect((await call(other, 'GET', `/contacts/imports/${queued.body.id}`)).body).toEqual({ error: 'Contact import not found', code: 'NOT_FOUND' });
    expect((await call(other, 'GET', '/contacts/imports')).body).toEqual({ data: [], nextCursor: null });
    const held = await call(org, 'DELETE', `/segments/${news}`);
    expect(held.status).toBe(409);
    expect(held.body.error).toContain(`the contact import ${queued.body.id} is adding contacts to it`);
    await drain();
    expect((await call(org, 'DELETE', `/segments/${news}`)).status).toBe(200);
  });
});

describe("an import's topics", () => {
  const topicOf = async (org: Org, name: string, defaultSubscription: 'opt_in' | 'opt_out') => {
    const created = await call(org, 'POST', '/topics', { name, default_subscription: defaultSubscription });
    expect(created.status, created.text).toBe(201);
    return created.body.id as string;
  };
  const stateIn = async (org: Org, email: string, topic: string) =>
    ((await call(org, 'GET', `/contacts/${encodeURIComponent(email)}/topics`)).body.data as Array<{ id: string; subscription: string }>).find((t) => t.id === topic)?.subscription;

  it("become every imported contact's own choices; an opt-out is added and never removed, and a skipped contact is left alone", async () => {
    const org = await app.createOrg();
    const news = await topicOf(org, 'Product news', 'opt_in');
    const offers = await topicOf(org, 'Offers', 'opt_out');
    // Ada left the news and joined offers; Grace joined offers; Linus exists with no choices.
    for (const [email, topics] of [
      ['ada@example.net', [{ id: news, subscription: 'opt_out' }, { id: offers, subscription: 'opt_in' }]],
      ['grace@example.net', [{ id: offers, subscription: 'opt_in' }]],
      ['linus@example.net', []],
    ] as const) {
      expect((await call(org, 'POST', '/contacts', { email, topics })).status).toBe(201);
    }
    const csv = 'email\nada@example.net\ngrace@example.net\nkurt@example.net\n';
    const result = await imported(org, csv, { on_conflict: 'upsert', topics: [{ id: news.toUpperCase(), subscription: 'opt_in' }, { id: offers, subscription: 'opt_out' }] });
    expect(result).toMatchObject({ status: 'completed', counts: { total: 3, created: 1, updated: 2, skipped: 0, failed: 0 } });
    // In: only where the contact had not left; out: taken out of offers whatever they chose.
    expect(await stateIn(org, 'ada@example.net', news)).toBe('opt_out');
    expect(await stateIn(org, 'ada@example.net', offers)).toBe('opt_out');
    expect(await stateIn(org, 'grace@example.net', news)).toBe('opt_in');
    expect(await stateIn(org, 'grace@example.net', offers)).toBe('opt_out');
    expect(await stateIn(org, 'kurt@example.net', news)).toBe('opt_in');
    expect(await stateIn(org, 'kurt@example.net', offers)).toBe('opt_out');
    // Their own choices now: the news stays Kurt's if the topic's default could change.
    const kurt = (await call(org, 'GET', '/contacts/kurt@example.net')).body.id as string;
    expect(await app.runtime.deps.db.select({ topicId: contactTopics.topicId, subscribed: contactTopics.subscribed }).from(contactTopics).where(eq(contactTopics.contactId, kurt))).toEqual(
      expect.arrayContaining([{ topicId: news, subscribed: true }, { topicId: offers, subscribed: false }]),
    );
    // on_conflict skip: Linus exists and keeps no choice; Alan is new and takes them.
    const skipping = await imported(org, 'email\nlinus@example.net\nalan@example.net\n', { on_conflict: 'skip', topics: [{ id: offers, subscription: 'opt_in' }] });
    expect(skipping).toMatchObject({ status: 'completed', counts: { created: 1, skipped: 1 } });
    expect(await stateIn(org, 'linus@example.net', offers)).toBe('opt_out');
    expect(await stateIn(org, 'alan@example.net', offers)).toBe('opt_in');
    const audit = await app.runtime.deps.db.select({ details: auditEvents.details }).from(auditEvents).where(and(eq(auditEvents.organizationId, org.organizationId), eq(auditEvents.action, 'contact.imported')));
    expect(audit.map((entry) => (entry.details as { topics: number }).topics).sort()).toEqual([1, 2]);
  });

  it('hold their topics: a topic an import is giving its contacts cannot be deleted until it ends', async () => {
    const org = await app.createOrg();
    const news = await topicOf(org, 'Product news', 'opt_in');
    const queued = await uploadImport(app, org.apiKey, 'email\nada@example.net\n', { topics: [{ id: news, subscription: 'opt_out' }] });
    expect(queued.status).toBe(202);
    const held = await call(org, 'DELETE', `/topics/${news}`);
    expect(held.status).toBe(409);
    expect(held.body).toEqual({ error: `The topic cannot be deleted: the contact import ${queued.body.id} is giving its contacts this topic; wait for it to finish`, code: 'CONFLICT' });
    await drain();
    expect(await stateIn(org, 'ada@example.net', news)).toBe('opt_out');
    expect((await call(org, 'DELETE', `/topics/${news}`)).status).toBe(200);
  });
});

describe('an import into a rule segment', () => {
  it('is refused (409) before anything is stored: its rules decide its members', async () => {
    const org = await app.createOrg();
    await withProperties(org);
    const pros = (await call(org, 'POST', '/segments', { name: 'Pros', rules: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } })).body;
    expect(pros.rules).not.toBeNull();
    const refused = await uploadImport(app, org.apiKey, 'email\nada@example.net\n', { segments: [pros.id] });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'The segment "Pros" takes its members from its rules: change the rules instead', code: 'CONFLICT' });
    expect(await app.runtime.deps.db.select().from(contactImports)).toEqual([]);
    expect(await app.runtime.deps.db.select().from(contactImportChunks)).toEqual([]);
  });
});

describe('while an import runs', () => {
  it('answers requests between its batches: PGlite\'s one connection is not held for a whole run', async () => {
    const org = await app.createOrg({ plan: '25k' });
    const csv = `email\n${Array.from({ length: 10_000 }, (_, i) => `r${i}@example.net`).join('\n')}\n`;
    const { id } = (await uploadImport(app, org.apiKey, csv)).body;
    const running = drain();
    // Asked once the run has started: answered while batches remain.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const read = await readImport(org, id);
    expect(['queued', 'in_progress']).toContain(read.status);
    expect(read.counts.created).toBeLessThan(10_000);
    await running;
    expect((await readImport(org, id)).counts.created).toBe(10_000);
  });
});

describe('an erasure', () => {
  it('takes the address out of the rows imports listed as not imported', async () => {
    const org = await app.createOrg();
    const result = await imported(org, 'email\nAda <ADA@example.net>\nnot-an-address\n');
    expect(result.errors.map((e: { email: string }) => e.email)).toEqual(['Ada <ADA@example.net>', 'not-an-address']);
    const erased = await app.request('DELETE', `/api/recipients/${encodeURIComponent('ada@example.net')}/data`, { key: org.apiKey });
    expect(erased.status, erased.text).toBe(200);
    expect(await readImport(org, result.id)).toMatchObject({ counts: { failed: 2 }, errors: [{ row: 3, email: 'not-an-address' }] });
  });
});

describe('GET /contacts/imports', () => {
  it('is the imports list, not the contact route; newest first in cursor pages, without their errors', async () => {
    const org = await app.createOrg();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await uploadImport(app, org.apiKey, `email\nc${i}@example.net\nbad\n`)).body.id);
    const first = await call(org, 'GET', '/contacts/imports?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data[0]).toMatchObject({ status: 'queued', confirmedConsent: false, counts: { total: 2, created: 0, updated: 0, skipped: 0, failed: 0 } });
    expect(first.body.data[0].errors).toBeUndefined();
    const second = await call(org, 'GET', `/contacts/imports?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    await drain();
    expect((await readImport(org, ids[0]!)).errors).toEqual([{ row: 3, email: 'bad', error: expect.stringMatching(/^email: /) }]);
    // The contact route still answers contacts, and imports is no address of one.
    expect((await call(org, 'GET', '/contacts/c0@example.net')).body.email).toBe('c0@example.net');
    expect((await call(org, 'GET', '/contacts/imports/not-an-id')).status).toBe(400);
  });
});

describe('a restart', () => {
  /** A file of `count` contacts, long enough rows that it is stored in several pieces. */
  const bigFile = (count: number) => `email,name,note\n${Array.from({ length: count }, (_, i) => `p${i}@example.net,Person ${i},${'n'.repeat(150)}`).join('\n')}\n`;

  async function expectEachOnce(org: Org, segmentId: string, count: number) {
    const stored = await app.runtime.deps.db.select({ email: contacts.email }).from(contacts).where(eq(contacts.organizationId, org.organizationId));
    expect(stored).toHaveLength(count);
    expect(new Set(stored.map((row) => row.email)).size).toBe(count);
    expect(await contactCount(org)).toBe(count);
    const memberships = await app.runtime.deps.db.select().from(audienceMemberships).where(eq(audienceMemberships.audienceId, segmentId));
    expect(memberships).toHaveLength(count);
    expect((await call(org, 'GET', `/audiences/${segmentId}`)).body.contactCount).toBe(count);
    const types = await eventTypes(org);
    expect(types.filter((e) => e.type === 'contact.created')).toHaveLength(2 * count);
  }

  it('goes on from the last batch stored when its worker dies: no row lost, none stored or counted twice', async () => {
    const org = await app.createOrg();
    const news = await segmentOf(org, 'News');
    const csv = bigFile(3_500);
    expect(csv.length).toBeGreaterThan(2 * CHUNK_CHARS);
    const { id } = (await uploadImport(app, org.apiKey, csv, { segments: [news] })).body;
    expect((await app.runtime.deps.db.select().from(contactImportChunks).where(eq(contactImportChunks.importId, id))).length).toBeGreaterThanOrEqual(2);
    // A second process on the same database runs one batch, then dies holding the claim.
    const second = await startTestApp({ shareDatabaseWith: app, env: { CONTACT_IMPORT_MAX_BYTES: String(MAX_BYTES) } });
    try {
      second.clock.set(app.clock.now());
      const dying = second.runtime.deps;
      await app.runtime.deps.db.update(contactImports).set({ claimedBy: dying.claims.id, claimedUntil: sql`now() + interval '30 seconds'` }).where(eq(contactImports.id, id));
      expect(await importBatch(dying, id)).toBe('more');
      expect(await importBatch(dying, id)).toBe('more');
      expect((await readImport(org, id)).counts).toEqual({ total: 3_500, created: 2_000, updated: 0, skipped: 0, failed: 0 });
    } finally {
      await second.close();
    }
    const dead = newId();
    await app.runtime.deps.db.update(contactImports).set({ claimedBy: dead }).where(eq(contactImports.id, id));
    // The worker that is not the holder is refused; once the holder is seen gone, another takes over.
    expect(await importBatch(app.runtime.deps, id)).toBe('stopped');
    await drain();
    expect(await readImport(org, id)).toMatchObject({ status: 'completed', counts: { total: 3_500, created: 3_500, updated: 0, skipped: 0, failed: 0 } });
    await expectEachOnce(org, news, 3_500);
  });

  it('stores nothing of a batch that dies before its progress is written, and stores it once on the next run', async () => {
    const org = await app.createOrg();
    const news = await segmentOf(org, 'News');
    const { id } = (await uploadImport(app, org.apiKey, bigFile(2_500), { segments: [news] })).body;
    const db = app.runtime.deps.db;
    // The batch's last statement (its progress) fails once: the contacts it wrote before are rolled back with it.
    // A sequence, not a table: its count survives the rollback the failure causes.
    await db.execute(sql`create sequence import_kill`);
    await db.execute(sql`create function import_kill_once() returns trigger language plpgsql as $$
      begin
        if new.created > old.created and nextval('import_kill') = 1 then
          raise exception 'the worker died here';
        end if;
        return new;
      end $$`);
    await db.execute(sql`create trigger import_kill before update on contact_imports for each row execute function import_kill_once()`);
    try {
      await expect(sweepContactImports(app.runtime.deps)).rejects.toThrow();
      expect(await db.select().from(contacts).where(eq(contacts.organizationId, org.organizationId))).toEqual([]);
      expect((await readImport(org, id)).counts.created).toBe(0);
      await drain();
    } finally {
      await db.execute(sql`drop trigger import_kill on contact_imports`);
      await db.execute(sql`drop function import_kill_once()`);
      await db.execute(sql`drop sequence import_kill`);
    }
    expect(await readImport(org, id)).toMatchObject({ status: 'completed', counts: { total: 2_500, created: 2_500, failed: 0 } });
    await expectEachOnce(org, news, 2_500);
  });

  it('runs as an Inngest function too: one import step after another while rows are left', async () => {
    const org = await app.createOrg();
    const { id } = (await uploadImport(app, org.apiKey, bigFile(1_200))).body;
    const [run] = functionsFor('contact-import', () => app.runtime.deps);
    const { result } = await new InngestTestEngine({ function: run! }).execute({ events: [{ name: 'contact-import/due', data: { id, organizationId: org.organizationId } }] });
    expect(result).toEqual({ id, outcome: 'completed' });
    expect((await readImport(org, id)).counts.created).toBe(1_200);
  });
});
