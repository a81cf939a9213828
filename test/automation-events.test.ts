import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents, automationRuns, customEvents, receivedEvents } from '@/db/schema';
import { sweepAutomationRuns } from '@/server/services/automations';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

// Resend's events.* (declared names with a payload schema, events sent for a contact) and
// automations.runs.* through the REST routes (docs/automations.md, "Your own events" and "Reading
// runs"): what a spec key and a test key may do, and that test runs and live runs never mix.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let testKey: string;
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg({ plan: '10k' });
  testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
});

const call = (method: string, path: string, body?: unknown, key = org.apiKey) => app.request(method, `/api${path}`, { key, body });
const sweep = () => sweepAutomationRuns(app.runtime.deps);

async function contact(email: string): Promise<string> {
  const created = await call('POST', '/contacts', { email, first_name: email.split('@')[0] });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

/** Waits for `site.verified` after `user.created`: a run that gets it completes, the others wait (running) for a day. */
async function verifyNudge(): Promise<string> {
  const created = await call('POST', '/automations', {
    name: 'Verify nudge',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
      { key: 'verified', type: 'wait_for_event', config: { event_name: 'site.verified', timeout: '1 day' } },
      { key: 'thank', type: 'contact_update', config: { last_name: 'Verified' } },
      { key: 'nudge', type: 'contact_update', config: { last_name: 'Nudged' } },
    ],
    connections: [
      { from: 'start', to: 'verified' },
      { from: 'verified', to: 'thank', type: 'event_received' },
      { from: 'verified', to: 'nudge', type: 'timeout' },
    ],
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

describe('declared events (POST/GET/PATCH/DELETE /events)', () => {
  it('declares a name with a schema, reads it by id and by name, changes and removes its schema, deletes it', async () => {
    const created = await call('POST', '/events', { name: 'user:signed-up.v2', schema: { plan: 'string', seats: 'number', trial: 'boolean', renews_on: 'date' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'user:signed-up.v2', schema: { plan: 'string', seats: 'number', trial: 'boolean', renews_on: 'date' }, createdAt: expect.any(String), updatedAt: null });
    const { id } = created.body;

    expect((await call('GET', `/events/${id}`)).body).toEqual(created.body);
    expect((await call('GET', `/events/${encodeURIComponent('user:signed-up.v2')}`)).body).toEqual(created.body);
    // A test key reads the organization's declarations (shared state).
    expect((await call('GET', `/events/${id}`, undefined, testKey)).status).toBe(200);

    const changed = await call('PATCH', `/events/${encodeURIComponent('user:signed-up.v2')}`, { schema: { plan: 'string' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id, schema: { plan: 'string' }, updatedAt: expect.any(String) });
    const cleared = await call('PATCH', `/events/${id}`, { schema: null });
    expect(cleared.body.schema).toBeNull();

    const other = await call('POST', '/events', { name: 'order.paid' });
    expect(other.status, other.text).toBe(201);
    expect(other.body.schema).toBeNull();
    const list = await call('GET', '/events/declared?limit=1');
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({ data: [expect.objectContaining({ name: 'order.paid' })], nextCursor: other.body.id });
    const next = await call('GET', `/events/declared?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body).toEqual({ data: [expect.objectContaining({ id, name: 'user:signed-up.v2' })], nextCursor: null });

    const removed = await call('DELETE', '/events/order.paid');
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ id: other.body.id, message: 'Event deleted' });
    expect((await call('GET', `/events/${other.body.id}`)).status).toBe(404);
    expect((await call('GET', '/events/order.paid')).body).toEqual({ error: 'Event not found', code: 'NOT_FOUND' });
    // Each change is in the audit log.
    const audit = await app.runtime.deps.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.targetType, 'custom_event'));
    expect(audit.map((entry) => entry.action).sort()).toEqual(['custom_event.created', 'custom_event.created', 'custom_event.deleted', 'custom_event.updated', 'custom_event.updated']);
  });

  it('refuses a duplicate name (409), reserved and malformed names, schemas of unknown types (400)', async () => {
    expect((await call('POST', '/events', { name: 'user.created' })).status).toBe(201);
    const duplicate = await call('POST', '/events', { name: 'user.created', schema: { plan: 'string' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ error: 'An event named "user.created" is declared already', code: 'CONFLICT' });

    for (const [name, words] of [
      ['email.opened', 'kept for this service'],
      ['Contact.created', 'kept for this service'],
      ['resend:user', 'kept for this service'],
      ['automation.run', 'kept for this service'],
      ['declared', 'path of the list'],
      ['-leading', 'must start with a letter or digit'],
      ['has space', 'must start with a letter or digit'],
      ['x'.repeat(101), 'at most 100'],
    ] as const) {
      const refused = await call('POST', '/events', { name });
      expect(refused.status, name).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(refused.body.error, name).toContain(words);
    }
    for (const schema of [{ plan: 'text' }, { 'a b': 'string' }, Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'string'])), ['string']]) {
      const refused = await call('POST', '/events', { name: 'order.paid', schema });
      expect(refused.status, JSON.stringify(schema)).toBe(400);
      expect(refused.body.error).toMatch(/^schema/);
    }
    expect((await call('POST', '/events', { name: 'order.paid', schema: { total: 'number' }, extra: 1 })).status).toBe(400);
    expect((await call('PATCH', '/events/user.created', {})).status).toBe(400);
    expect((await call('PATCH', '/events/user.created', { name: 'renamed', schema: null })).status).toBe(400);
  });

  it("answers 404 for another organization's declaration, by id and by name, and changes nothing", async () => {
    const other = await app.createOrg({ plan: '10k', name: 'Other', ownerEmail: 'other@other.test' });
    const theirs = await app.request('POST', '/api/events', { key: other.apiKey, body: { name: 'invoice.sent', schema: { total: 'number' } } });
    expect(theirs.status, theirs.text).toBe(201);
    for (const path of [`/events/${theirs.body.id}`, '/events/invoice.sent']) {
      expect((await call('GET', path)).status, path).toBe(404);
      expect((await call('PATCH', path, { schema: null })).status, path).toBe(404);
      expect((await call('DELETE', path)).status, path).toBe(404);
    }
    expect((await call('GET', '/events/declared')).body.data).toEqual([]);
    const [row] = await app.runtime.deps.db.select().from(customEvents).where(eq(customEvents.id, theirs.body.id));
    expect(row).toMatchObject({ name: 'invoice.sent', schema: { total: 'number' } });
    // Our own name is free although theirs is taken.
    expect((await call('POST', '/events', { name: 'invoice.sent' })).status).toBe(201);
  });

  it('refuses every write with a test key (403: declarations are shared state), and sending_access keys altogether', async () => {
    expect((await call('POST', '/events', { name: 'user.created' })).status).toBe(201);
    for (const [method, path, body] of [
      ['POST', '/events', { name: 'order.paid' }],
      ['PATCH', '/events/user.created', { schema: { plan: 'string' } }],
      ['DELETE', '/events/user.created', undefined],
    ] as const) {
      const refused = await call(method, path, body, testKey);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
    }
    const sending = await keyFor(app, org.organizationId, 'sending_access', 'live');
    for (const [method, path, body] of [
      ['GET', '/events/declared', undefined],
      ['POST', '/events/send', { event: 'user.created', email: 'ada@example.net' }],
    ] as const) {
      expect((await call(method, path, body, sending)).status, `${method} ${path}`).toBe(403);
    }
    expect((await call('GET', '/events/user.created')).body.schema).toBeNull();
  });

  it('leaves GET /events the event log', async () => {
    await call('POST', '/events', { name: 'user.created' });
    const log = await call('GET', '/events');
    expect(log.status, log.text).toBe(200);
    expect(log.body).toEqual({ data: expect.any(Array), nextCursor: null, hasMore: false });
    expect(log.body.data.some((entry: { name?: string }) => entry.name === 'user.created')).toBe(false);
  });
});

describe('POST /events/send', () => {
  it('starts runs for a contact named by address or by id, answers the receipt (202), and keeps the event', async () => {
    const automationId = await verifyNudge();
    const ada = await contact('ada@example.net');
    await contact('bob@example.net');

    const byEmail = await call('POST', '/events/send', { event: 'user.created', email: 'Bob@Example.net', payload: { plan: 'pro' } });
    expect(byEmail.status, byEmail.text).toBe(202);
    expect(byEmail.body).toEqual({ id: expect.any(String), event: 'user.created', contactId: expect.any(String), runsStarted: 1, waitsEnded: 0, contactCreation: null });
    const byId = await call('POST', '/events/send', { event: 'user.created', contact_id: ada });
    expect(byId.body).toMatchObject({ contactId: ada, runsStarted: 1, waitsEnded: 0 });
    await sweep();
    // The wait ends on the event, for its contact only.
    const woke = await call('POST', '/events/send', { event: 'site.verified', contact_id: ada });
    expect(woke.body).toMatchObject({ runsStarted: 0, waitsEnded: 1 });
    await sweep();
    const runs = await app.runtime.deps.db.select({ email: automationRuns.contactEmail, status: automationRuns.status, test: automationRuns.test, event: automationRuns.event }).from(automationRuns).where(eq(automationRuns.automationId, automationId));
    expect(runs.sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'ada@example.net', status: 'completed', test: false, event: { name: 'user.created', payload: {} } },
      { email: 'bob@example.net', status: 'running', test: false, event: { name: 'user.created', payload: { plan: 'pro' } } },
    ]);
    expect(await app.runtime.deps.db.select({ name: receivedEvents.name }).from(receivedEvents)).toHaveLength(3);
  });

  it('keeps an event for an address that is no contact, and starts nothing (no trigger on it has create_contact)', async () => {
    await verifyNudge();
    const kept = await call('POST', '/events/send', { event: 'user.created', email: 'nobody@example.net', payload: { plan: 'pro' } });
    expect(kept.status, kept.text).toBe(202);
    expect(kept.body).toMatchObject({ contactId: null, runsStarted: 0, waitsEnded: 0, contactCreation: null });
    expect(await app.runtime.deps.db.select().from(automationRuns)).toHaveLength(0);
    const [stored] = await app.runtime.deps.db.select().from(receivedEvents);
    expect(stored).toMatchObject({ name: 'user.created', email: 'nobody@example.net', contactId: null, payload: { plan: 'pro' }, test: false });
  });

  it('refuses neither or both of email and contact_id, an unknown contact id (404), a bad address and a reserved name', async () => {
    await contact('ada@example.net');
    const neither = await call('POST', '/events/send', { event: 'user.created' });
    expect(neither.status).toBe(400);
    expect(neither.body.error).toContain('give exactly one of email and contact_id');
    const both = await call('POST', '/events/send', { event: 'user.created', email: 'ada@example.net', contact_id: '01900000-0000-7000-8000-000000000000' });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('give exactly one of email and contact_id');
    const unknown = await call('POST', '/events/send', { event: 'user.created', contact_id: '01900000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    expect((await call('POST', '/events/send', { event: 'user.created', contact_id: 'ada' })).status).toBe(400);
    expect((await call('POST', '/events/send', { event: 'user.created', email: 'not an address' })).status).toBe(400);
    const reserved = await call('POST', '/events/send', { event: 'email.opened', email: 'ada@example.net' });
    expect(reserved.status).toBe(400);
    expect(reserved.body.error).toMatch(/^event: /);
    expect((await call('POST', '/events/send', { email: 'ada@example.net' })).status).toBe(400);
    expect((await call('POST', '/events/send', { event: 'user.created', email: 'ada@example.net', payload: ['a'] })).status).toBe(400);
    expect(await app.runtime.deps.db.select().from(receivedEvents)).toHaveLength(0);
  });

  it("checks the payload against the declared schema (400 naming the field), and bounds its size and depth", async () => {
    await call('POST', '/events', { name: 'order.paid', schema: { total: 'number', currency: 'string', gift: 'boolean', paid_on: 'date' } });
    await contact('ada@example.net');
    const send = (payload: unknown) => call('POST', '/events/send', { event: 'order.paid', email: 'ada@example.net', payload });

    expect((await send({ total: 12.5, currency: 'EUR', gift: false, paid_on: '2026-11-30T10:00:00Z', note: { any: ['thing'] } })).status).toBe(202);
    // Fields the schema names may be left out.
    expect((await send({})).status).toBe(202);
    expect((await send({ paid_on: '2026-11-30' })).status).toBe(202);
    for (const [payload, field] of [
      [{ total: '12.50' }, 'payload.total: must be a number'],
      [{ currency: 978 }, 'payload.currency: must be a string'],
      [{ gift: 'yes' }, 'payload.gift: must be true or false'],
      [{ paid_on: 'yesterday' }, 'payload.paid_on: must be an ISO 8601 date'],
      [{ paid_on: '2026-13-45' }, 'payload.paid_on: must be an ISO 8601 date'],
      [{ total: null }, 'payload.total: must be a number'],
    ] as const) {
      const refused = await send(payload);
      expect(refused.status, JSON.stringify(payload)).toBe(400);
      expect(refused.body.error).toContain(field);
      expect(refused.body.error).toContain('as the event "order.paid" declares it');
    }
    // An undeclared name is taken unchecked.
    expect((await call('POST', '/events/send', { event: 'order.refunded', email: 'ada@example.net', payload: { total: 'all of it' } })).status).toBe(202);

    const large = await send({ note: 'x'.repeat(33 * 1024) });
    expect(large.status).toBe(400);
    expect(large.body.error).toContain('payload: must be at most 32 KiB');
    const deep = await send({ a: { b: { c: { d: { e: { f: 1 } } } } } });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toContain('payload: must nest at most 5');
    expect((await send({ a: { b: { c: { d: { e: 1 } } } } })).status).toBe(202);
    expect(await app.runtime.deps.db.select().from(receivedEvents)).toHaveLength(5);
  });
});

describe('runs (GET /automations/{id}/runs and /runs/{runId})', () => {
  it('lists runs newest first in pages, filters by status, and reads one with its steps', async () => {
    const automationId = await verifyNudge();
    for (const name of ['ada', 'bob', 'cy']) await contact(`${name}@example.net`);
    for (const name of ['ada', 'bob', 'cy']) expect((await call('POST', '/events/send', { event: 'user.created', email: `${name}@example.net`, payload: { n: name } })).status).toBe(202);
    // Before the sweep takes its trigger, a run has not started.
    const fresh = await call('GET', `/automations/${automationId}/runs`);
    expect(fresh.body.data.map((run: { startedAt: string | null }) => run.startedAt)).toEqual([null, null, null]);
    await sweep();
    await call('POST', '/events/send', { event: 'site.verified', email: 'ada@example.net' });
    await sweep();

    const first = await call('GET', `/automations/${automationId}/runs?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((run: { contactEmail: string }) => run.contactEmail)).toEqual(['cy@example.net', 'bob@example.net']);
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      status: 'running',
      startedAt: expect.any(String),
      completedAt: null,
      createdAt: expect.any(String),
      contactId: expect.any(String),
      contactEmail: 'cy@example.net',
      version: 1,
      stepKey: 'verified',
      endedReason: null,
      error: null,
    });
    expect(first.body.nextCursor).toBe(first.body.data[1].id);
    const second = await call('GET', `/automations/${automationId}/runs?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ contactEmail: 'ada@example.net', status: 'completed', stepKey: 'thank', completedAt: expect.any(String) })], nextCursor: null });

    const emails = async (query: string) => (await call('GET', `/automations/${automationId}/runs?${query}`)).body.data.map((run: { contactEmail: string }) => run.contactEmail);
    expect(await emails('status=completed')).toEqual(['ada@example.net']);
    expect(await emails('status=running')).toEqual(['cy@example.net', 'bob@example.net']);
    expect(await emails('status=running,completed')).toEqual(['cy@example.net', 'bob@example.net', 'ada@example.net']);
    expect(await emails('status=failed,cancelled')).toEqual([]);
    const badStatus = await call('GET', `/automations/${automationId}/runs?status=running,done`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error).toContain('"done" is not a run status');
    expect((await call('GET', `/automations/${automationId}/runs?before=${first.body.data[0].id}`)).status).toBe(400);
    expect((await call('GET', `/automations/${automationId}/runs?limit=101`)).status).toBe(400);

    const adaRun = second.body.data[0];
    const got = await call('GET', `/automations/${automationId}/runs/${adaRun.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ ...adaRun, steps: expect.any(Array) });
    expect(got.body.steps).toEqual([
      { key: 'start', type: 'trigger', status: 'completed', output: { event: 'user.created' }, error: null, startedAt: expect.any(String), completedAt: expect.any(String), createdAt: expect.any(String) },
      { key: 'verified', type: 'wait_for_event', status: 'completed', output: expect.objectContaining({ received: 'site.verified' }), error: null, startedAt: expect.any(String), completedAt: expect.any(String), createdAt: expect.any(String) },
      { key: 'thank', type: 'contact_update', status: 'completed', output: null, error: null, startedAt: expect.any(String), completedAt: expect.any(String), createdAt: expect.any(String) },
    ]);
    const bobRun = first.body.data[1];
    const waiting = await call('GET', `/automations/${automationId}/runs/${bobRun.id}`);
    expect(waiting.body.steps.map((step: { key: string; status: string; completedAt: string | null }) => [step.key, step.status, step.completedAt])).toEqual([
      ['start', 'completed', expect.any(String)],
      ['verified', 'waiting', null],
    ]);
  });

  it("answers 404 for another automation's run, another organization's automation or run, and a deleted automation", async () => {
    const automationId = await verifyNudge();
    await contact('ada@example.net');
    await call('POST', '/events/send', { event: 'user.created', email: 'ada@example.net' });
    const [run] = await app.runtime.deps.db.select({ id: automationRuns.id }).from(automationRuns);
    const quiet = await call('POST', '/automations', {
      name: 'Quiet',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'contact.created' } },
        { key: 'pause', type: 'delay', config: { duration: '1 hour' } },
      ],
      connections: [{ from: 'start', to: 'pause' }],
    });
    expect((await call('GET', `/automations/${quiet.body.id}/runs/${run!.id}`)).status).toBe(404);
    expect((await call('GET', `/automations/${automationId}/runs/01900000-0000-7000-8000-000000000000`)).body).toEqual({ error: 'Automation run not found', code: 'NOT_FOUND' });
    expect((await call('GET', `/automations/${automationId}/runs/not-a-uuid`)).status).toBe(400);

    const other = await app.createOrg({ plan: '10k', name: 'Other', ownerEmail: 'other@other.test' });
    for (const path of [`/automations/${automationId}/runs`, `/automations/${automationId}/runs/${run!.id}`]) {
      const refused = await app.request('GET', `/api${path}`, { key: other.apiKey });
      expect(refused.status, path).toBe(404);
      expect(refused.body).toEqual({ error: 'Automation not found', code: 'NOT_FOUND' });
    }
    expect((await call('DELETE', `/automations/${automationId}`)).status).toBe(200);
    expect((await call('GET', `/automations/${automationId}/runs`)).status).toBe(404);
  });
});

describe('test mode', () => {
  it("a test key's event starts test runs only, which the live key does not list, and the other way round", async () => {
    const automationId = await verifyNudge();
    await contact('ada@example.net');
    await contact('bob@example.net');
    const testSent = await call('POST', '/events/send', { event: 'user.created', email: 'ada@example.net' }, testKey);
    expect(testSent.status, testSent.text).toBe(202);
    expect(testSent.body).toMatchObject({ runsStarted: 1 });
    const liveSent = await call('POST', '/events/send', { event: 'user.created', email: 'bob@example.net' });
    expect(liveSent.body).toMatchObject({ runsStarted: 1 });
    await sweep();

    const list = async (key: string) => (await call('GET', `/automations/${automationId}/runs`, undefined, key)).body.data as Array<{ id: string; contactEmail: string }>;
    const testRuns = await list(testKey);
    const liveRuns = await list(org.apiKey);
    expect(testRuns.map((run) => run.contactEmail)).toEqual(['ada@example.net']);
    expect(liveRuns.map((run) => run.contactEmail)).toEqual(['bob@example.net']);
    expect((await call('GET', `/automations/${automationId}/runs/${testRuns[0]!.id}`)).status).toBe(404);
    expect((await call('GET', `/automations/${automationId}/runs/${liveRuns[0]!.id}`, undefined, testKey)).status).toBe(404);
    expect((await call('GET', `/automations/${automationId}/runs/${testRuns[0]!.id}`, undefined, testKey)).status).toBe(200);

    // A live event ends no test wait, and a test event no live one.
    expect((await call('POST', '/events/send', { event: 'site.verified', email: 'ada@example.net' })).body).toMatchObject({ waitsEnded: 0 });
    expect((await call('POST', '/events/send', { event: 'site.verified', email: 'bob@example.net' }, testKey)).body).toMatchObject({ waitsEnded: 0 });
    expect((await call('POST', '/events/send', { event: 'site.verified', email: 'ada@example.net' }, testKey)).body).toMatchObject({ waitsEnded: 1 });
    await sweep();
    const rows = await app.runtime.deps.db.select({ email: automationRuns.contactEmail, test: automationRuns.test, status: automationRuns.status }).from(automationRuns);
    expect(rows.sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'ada@example.net', test: true, status: 'completed' },
      { email: 'bob@example.net', test: false, status: 'running' },
    ]);
    const kept = await app.runtime.deps.db.select({ name: receivedEvents.name, test: receivedEvents.test }).from(receivedEvents);
    expect(kept.filter((event) => event.test)).toHaveLength(3);
  });
});
