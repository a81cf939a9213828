import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { startTestApp, type TestApp } from './support/app';
import { publishRecords } from './support/domains';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';

/*
 * Issue 28, point 8: a sending_access key pinned to domain A acts on A's emails only. The attacker
 * holds a key pinned to acme.example.com (A) and aims at an email the organization sent from
 * beta.example.com (B): cancel it, move it, or learn its id through an Idempotency-Key.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());

interface World {
  organizationId: string;
  fullKey: string;
  domainA: string;
  domainB: string;
}

/** An organization with two verified domains, A (acme.example.com) and B (beta.example.com). */
async function twoDomains(): Promise<World> {
  const org = await sendingOrg(app);
  const beta = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'beta.example.com' } });
  publishRecords(app.dns, beta.body.records);
  await sweepDomainChecks(app.runtime.deps);
  const checked = await app.request('GET', `/api/domains/${beta.body.id}`, { key: org.apiKey });
  expect(checked.body.status).toBe('verified');
  return { organizationId: org.organizationId, fullKey: org.apiKey, domainA: org.domainId, domainB: beta.body.id };
}

const inAnHour = () => new Date(app.clock.now().getTime() + 3_600_000).toISOString();
const later = () => new Date(app.clock.now().getTime() + 7_200_000).toISOString();

async function scheduled(key: string, from: string, idempotencyKey?: string): Promise<string> {
  const sent = await app.request('POST', '/api/emails', {
    key,
    body: { from, to: 'ada@example.net', subject: `From ${from}`, text: 'Hello', scheduled_at: inAnHour() },
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
  });
  expect(sent.status, sent.text).toBe(200);
  return sent.body.id;
}

/** What another organization's email id gets: the answer a foreign domain's email must be indistinguishable from. */
async function foreignAnswers(key: string): Promise<{ cancel: unknown; reschedule: unknown }> {
  const other = await app.createOrg({ name: 'Other' });
  const otherDomain = await app.request('POST', '/api/domains', { key: other.apiKey, body: { name: 'other.example.org' } });
  publishRecords(app.dns, otherDomain.body.records);
  await sweepDomainChecks(app.runtime.deps);
  const id = await scheduled(other.apiKey, 'hello@other.example.org');
  const cancel = await app.request('POST', `/api/emails/${id}/cancel`, { key });
  const reschedule = await app.request('PATCH', `/api/emails/${id}`, { key, body: { scheduled_at: later() } });
  expect(cancel.status).toBe(404);
  return { cancel: cancel.body, reschedule: reschedule.body };
}

describe('a key pinned to domain A and the emails of domain B', () => {
  for (const mode of ['live', 'test'] as const) {
    it(`${mode}: cannot cancel or reschedule B's email (404 as for another organization's); B's email is untouched`, async () => {
      const world = await twoDomains();
      const fullKey = mode === 'live' ? world.fullKey : await keyFor(app, world.organizationId, 'full_access', 'test');
      const pinned = await keyFor(app, world.organizationId, 'sending_access', mode, world.domainA);
      const fromB = await scheduled(fullKey, 'Beta <news@beta.example.com>');
      const fromA = await scheduled(fullKey, 'Acme <hello@acme.example.com>');
      const foreign = await foreignAnswers(pinned);

      const cancel = await app.request('POST', `/api/emails/${fromB}/cancel`, { key: pinned });
      expect(cancel.status).toBe(404);
      expect(cancel.body).toEqual({ error: 'Email not found', code: 'NOT_FOUND' });
      expect(cancel.body).toEqual(foreign.cancel);
      const reschedule = await app.request('PATCH', `/api/emails/${fromB}`, { key: pinned, body: { scheduled_at: later() } });
      expect(reschedule.status).toBe(404);
      expect(reschedule.body).toEqual(foreign.reschedule);
      const b = await app.request('GET', `/api/emails/${fromB}`, { key: fullKey });
      expect(b.body).toMatchObject({ status: 'scheduled', scheduledAt: inAnHour() });

      // Its own domain's email: both still work.
      const moved = await app.request('PATCH', `/api/emails/${fromA}`, { key: pinned, body: { scheduled_at: later() } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toEqual({ id: fromA, scheduledAt: later() });
      const canceled = await app.request('POST', `/api/emails/${fromA}/cancel`, { key: pinned });
      expect(canceled.body).toEqual({ id: fromA, status: 'canceled' });
    });
  }

  it('cannot cancel an email of the shared sandbox domain, which it may not send from either', async () => {
    const world = await twoDomains();
    const pinned = await keyFor(app, world.organizationId, 'sending_access', 'live', world.domainA);
    app.dns.mx('acme.test', 'mx.acme.test');
    const sandbox = await app.request('POST', '/api/emails', {
      key: world.fullKey,
      body: { from: 'onboarding@sandbox.eumail.eu', to: 'owner@acme.test', subject: 'Sandbox', text: 'Hi', scheduled_at: inAnHour() },
    });
    expect(sandbox.status, sandbox.text).toBe(200);
    expect((await app.request('POST', `/api/emails/${sandbox.body.id}/cancel`, { key: pinned })).body).toEqual({ error: 'Email not found', code: 'NOT_FOUND' });
  });

  it('the same refusals over tRPC with the pinned key', async () => {
    const world = await twoDomains();
    const pinned = await keyFor(app, world.organizationId, 'sending_access', 'live', world.domainA);
    const fromB = await scheduled(world.fullKey, 'news@beta.example.com');
    const call = async (path: string, input: unknown) => {
      const response = await fetch(`${app.url}/api/trpc/${path}`, { method: 'POST', headers: { authorization: `Bearer ${pinned}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      return { status: response.status, text: await response.text() };
    };
    for (const [path, input] of [
      ['emails.cancel', { id: fromB }],
      ['emails.reschedule', { id: fromB, scheduled_at: later() }],
    ] as const) {
      const answer = await call(path, input);
      expect(answer.status, path).toBe(404);
      expect(answer.text).toContain('NOT_FOUND');
    }
    expect((await app.request('GET', `/api/emails/${fromB}`, { key: world.fullKey })).body.status).toBe('scheduled');
  });
});

describe('a key pinned to domain A and an Idempotency-Key used for B', () => {
  for (const mode of ['live', 'test'] as const) {
    it(`${mode}: answers 409 CONFLICT, never B's email id, and stores nothing`, async () => {
      const world = await twoDomains();
      const fullKey = mode === 'live' ? world.fullKey : await keyFor(app, world.organizationId, 'full_access', 'test');
      const pinned = await keyFor(app, world.organizationId, 'sending_access', mode, world.domainA);
      const fromB = await scheduled(fullKey, 'news@beta.example.com', 'order-42');
      const countOf = async () =>
        (await app.runtime.deps.db.select({ n: count() }).from(emails).where(and(eq(emails.organizationId, world.organizationId), eq(emails.mode, mode))))[0]!.n;
      const before = await countOf();

      const replay = await app.request('POST', '/api/emails', {
        key: pinned,
        body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Mine', text: 'Hello' },
        headers: { 'Idempotency-Key': 'order-42' },
      });
      expect(replay.status).toBe(409);
      expect(replay.body).toEqual({ error: expect.stringContaining('Idempotency-Key'), code: 'CONFLICT' });
      expect(replay.text).not.toContain(fromB);
      expect(await countOf()).toBe(before);
      // A full key still gets B's email back, as before.
      const full = await app.request('POST', '/api/emails', { key: fullKey, body: { from: 'news@beta.example.com', to: 'ada@example.net', subject: 'x', text: 'x' }, headers: { 'Idempotency-Key': 'order-42' } });
      expect(full.body).toEqual({ id: fromB });

      // Its own keys still replay: the first email's id, nothing stored twice.
      const first = await app.request('POST', '/api/emails', { key: pinned, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'A', text: 'A' }, headers: { 'Idempotency-Key': 'mine-1' } });
      expect(first.status, first.text).toBe(200);
      const again = await app.request('POST', '/api/emails', { key: pinned, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'A', text: 'A' }, headers: { 'Idempotency-Key': 'mine-1' } });
      expect(again.body).toEqual({ id: first.body.id });
      expect(await countOf()).toBe(before + 1);
    });
  }

  it('a concurrent race for the key with B answers 409 too, never the id', async () => {
    const world = await twoDomains();
    const pinned = await keyFor(app, world.organizationId, 'sending_access', 'live', world.domainA);
    const [fromB, fromA] = await Promise.all([
      app.request('POST', '/api/emails', { key: world.fullKey, body: { from: 'news@beta.example.com', to: 'ada@example.net', subject: 'B', text: 'B' }, headers: { 'Idempotency-Key': 'race' } }),
      app.request('POST', '/api/emails', { key: pinned, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'A', text: 'A' }, headers: { 'Idempotency-Key': 'race' } }),
    ]);
    expect(fromB.status, fromB.text).toBe(200);
    // Either the pinned key's email won the key (then B's request got A's id back, as a full key may),
    // or B's did and the pinned key is refused without learning its id.
    if (fromA.status === 200) {
      expect(fromB.body).toEqual({ id: fromA.body.id });
      const [email] = await app.runtime.deps.db.select({ domainId: emails.domainId }).from(emails).where(eq(emails.id, fromA.body.id));
      expect(email!.domainId).toBe(world.domainA);
    } else {
      expect(fromA.status).toBe(409);
      expect(fromA.text).not.toContain(fromB.body.id);
    }
  });
});
