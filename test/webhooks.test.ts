import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { InngestTestEngine, mockCtx } from '@inngest/test';
import { Webhook } from 'standardwebhooks';
import { events, organizations, systemEmails, webhookDeliveries, webhooks } from '@/db/schema';
import { functionsFor } from '@/inngest/functions';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { recordEvent } from '@/server/services/shared/events';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from './support/webhook-receiver';

const RETRY_BASE_MS = 1_000;
let app: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  app = await startTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), SANDBOX_DOMAIN: 'sandbox.eumail.eu', TEST_MODE_STEP_MS: '1000' },
  });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await closeOutboundConnections();
  await receiver.close();
  await app.close();
});
beforeEach(async () => {
  await app.reset();
  receiver.received.length = 0;
  receiver.answerWith(() => ({ status: 200 }));
  app.dns.a('hooks.example.com', '127.0.0.1');
});

const hookUrl = (path = '/hook') => `http://hooks.example.com:${receiver.port}${path}`;
const deps = () => app.runtime.deps;

async function endpoint(key: string, events: string[] = ['*'], path = '/hook'): Promise<{ id: string; secret: string; testSecret: string }> {
  const created = await app.request('POST', '/api/webhooks', { key, body: { url: hookUrl(path), events } });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const registerDomain = (key: string, name = 'acme.example.com') => app.request('POST', '/api/domains', { key, body: { name } });
const deliveriesOf = async (key: string, webhookId: string) => (await app.request('GET', `/api/webhooks/${webhookId}`, { key })).body.deliveries as Array<Record<string, any>>;
const verifies = (hook: ReceivedHook, secret: string) => {
  try {
    new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('webhook endpoints', () => {
  it('creates, lists, reads, updates and deletes an endpoint; the secret is retrievable and rotates', async () => {
    const org = await app.createOrg();
    const created = await endpoint(org.apiKey, ['email.bounced', 'email.bounced', 'domain.created']);
    expect(created).toEqual({
      id: expect.any(String),
      url: hookUrl(),
      events: ['email.bounced', 'domain.created'],
      secret: expect.stringMatching(/^whsec_/),
      testSecret: expect.stringMatching(/^whsec_/),
      createdAt: expect.any(String),
    });
    expect(created.testSecret).not.toBe(created.secret);
    const list = await app.request('GET', '/api/webhooks', { key: org.apiKey });
    expect(list.body.data).toEqual([expect.objectContaining({ id: created.id, health: { attempts24h: 0, succeeded24h: 0, lastFailureAt: null, lastFailure: null } })]);
    expect((await app.request('GET', `/api/webhooks/${created.id}/secret`, { key: org.apiKey })).body).toEqual({ mode: 'live', secret: created.secret, testSecret: created.testSecret });
    const patched = await app.request('PATCH', `/api/webhooks/${created.id}`, { key: org.apiKey, body: { events: ['*'] } });
    expect(patched.body).toMatchObject({ id: created.id, events: ['*'], url: hookUrl() });
    const rotated = await app.request('POST', `/api/webhooks/${created.id}/rotate-secret`, { key: org.apiKey });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect((await app.request('GET', `/api/webhooks/${created.id}/secret`, { key: org.apiKey })).body.secret).toBe(rotated.body.secret);
    // The secret is sealed at rest.
    const [row] = await deps().db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(row!.secretSealed).not.toContain(rotated.body.secret.slice(6));
    expect((await app.request('DELETE', `/api/webhooks/${created.id}`, { key: org.apiKey })).status).toBe(200);
    expect((await app.request('GET', `/api/webhooks/${created.id}`, { key: org.apiKey })).body.code).toBe('NOT_FOUND');
  });

  it("takes Resend's names: `endpoint` for url, and the signing secret rotated at /signing-secret/rotate", async () => {
    const org = await app.createOrg();
    const created = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { endpoint: hookUrl(), events: ['email.sent'] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ url: hookUrl(), events: ['email.sent'] });
    const moved = await app.request('PATCH', `/api/webhooks/${created.body.id}`, { key: org.apiKey, body: { endpoint: `${hookUrl()}?v=2` } });
    expect(moved.body.url).toBe(`${hookUrl()}?v=2`);
    const both = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: hookUrl(), endpoint: hookUrl(), events: ['email.sent'] } });
    expect(both.body).toEqual({ error: 'endpoint: give url or endpoint (its other name), not both', code: 'VALIDATION_ERROR' });
    const patchedBoth = await app.request('PATCH', `/api/webhooks/${created.body.id}`, { key: org.apiKey, body: { url: hookUrl(), endpoint: hookUrl() } });
    expect(patchedBoth.body).toEqual({ error: 'endpoint: give url or endpoint (its other name), not both', code: 'VALIDATION_ERROR' });
    const neither = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { events: ['email.sent'] } });
    expect(neither.body).toEqual({ error: 'url: is required (or endpoint, its other name)', code: 'VALIDATION_ERROR' });

    const rotated = await app.request('POST', `/api/webhooks/${created.body.id}/signing-secret/rotate`, { key: org.apiKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ mode: 'live', secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await app.request('GET', `/api/webhooks/${created.body.id}/secret`, { key: org.apiKey })).body.secret).toBe(rotated.body.secret);
  });

  it('refuses an empty event list, unknown event types and unknown fields, naming them', async () => {
    const org = await app.createOrg();
    const empty = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: hookUrl(), events: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/events/);
    const unknown = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: hookUrl(), events: ['email.sent', 'email.nope'] } });
    expect(unknown.body).toEqual({ error: expect.stringMatching(/^events: "email.nope" is not an event type/), code: 'VALIDATION_ERROR' });
    const test = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: hookUrl(), events: ['webhook.test'] } });
    expect(test.body.code).toBe('VALIDATION_ERROR');
    const extra = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: hookUrl(), events: ['*'], secret: 'mine' } });
    expect(extra.body).toEqual({ error: expect.stringMatching(/secret/), code: 'VALIDATION_ERROR' });
    expect((await app.request('GET', '/api/webhooks', { key: org.apiKey })).body.data).toEqual([]);
  });

  it('holds the plan cap under concurrent creations and never disables an endpoint after a downgrade', async () => {
    const free = await app.createOrg({ plan: 'free' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.request('POST', '/api/webhooks', { key: free.apiKey, body: { url: hookUrl(), events: ['*'] } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
    expect(answers.find((a) => a.status === 403)!.body).toEqual({ error: expect.stringMatching(/Free plan allows 1 webhook endpoint/), code: 'PLAN_LIMIT_EXCEEDED' });

    const paid = await app.createOrg({ plan: '10k' });
    for (let i = 0; i < 3; i += 1) await endpoint(paid.apiKey, ['domain.created'], `/paid-${i}`);
    expect((await app.request('POST', '/api/webhooks', { key: paid.apiKey, body: { url: hookUrl(), events: ['*'] } })).status).toBe(403);
    await deps().db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, paid.organizationId));
    await registerDomain(paid.apiKey);
    await sweepWebhookDeliveries(deps());
    expect(receiver.received.map((hook) => hook.path).sort()).toEqual(['/paid-0', '/paid-1', '/paid-2']);
  });

  it('lets a test key read endpoints but not change them (its own test-mode secret aside)', async () => {
    const org = await app.createOrg();
    const created = await endpoint(org.apiKey);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await app.request('GET', `/api/webhooks/${created.id}`, { key: testKey })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/webhooks', { url: hookUrl(), events: ['*'] }],
      ['PATCH', `/api/webhooks/${created.id}`, { events: ['email.sent'] }],
      ['POST', `/api/webhooks/${created.id}/rotate-secret`, { mode: 'live' }],
      ['DELETE', `/api/webhooks/${created.id}`, undefined],
    ] as const) {
      const answer = await app.request(method, path, { key: testKey, body });
      expect(answer.body, `${method} ${path}`).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
    }
  });
});

describe('webhook delivery', () => {
  it('sends each matching event once per subscribed endpoint, signed, with a stable webhook-id', async () => {
    const org = await app.createOrg();
    const all = await endpoint(org.apiKey, ['*'], '/all');
    const domains = await endpoint(org.apiKey, ['domain.created'], '/domains');
    const bounces = await endpoint(org.apiKey, ['email.bounced'], '/bounces');
    const domain = await registerDomain(org.apiKey);
    expect((await sweepWebhookDeliveries(deps())).handled).toBe(2);
    expect(receiver.received.map((hook) => hook.path).sort()).toEqual(['/all', '/domains']);
    const [toAll, toDomains] = ['/all', '/domains'].map((path) => receiver.received.find((hook) => hook.path === path)!);
    expect(receiver.verify(toAll!, all.secret)).toEqual({ type: 'domain.created', createdAt: expect.any(String), data: { domainId: domain.body.id, name: 'acme.example.com', status: 'pending', mode: 'live' } });
    expect(verifies(toDomains!, domains.secret)).toBe(true);
    expect(verifies(toDomains!, all.secret)).toBe(false);
    // One event, one webhook-id, whichever endpoint receives it.
    expect(toAll!.headers['webhook-id']).toBe(toDomains!.headers['webhook-id']);
    expect(toAll!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(await deliveriesOf(org.apiKey, bounces.id)).toEqual([]);
  });

  it('delivers the events of a test-mode email like a live one, marked mode "test"', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['email.queued', 'email.sent', 'email.delivered']);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const sent = await app.request('POST', '/api/emails', { key: testKey, body: { from: 'onboarding@sandbox.eumail.eu', to: 'owner@acme.test', subject: 'Hi', text: 'Hello' } });
    expect(sent.status, sent.text).toBe(200);
    await sweepEmailDispatch(deps());
    app.clock.advance(1_000);
    await sweepEmailDispatch(deps());
    await sweepWebhookDeliveries(deps());
    const payloads = receiver.received.map((received) => receiver.verify(received, hook.secret));
    expect(payloads.map((payload) => payload.type).sort()).toEqual(['email.delivered', 'email.queued', 'email.sent']);
    for (const payload of payloads) expect(payload.data).toMatchObject({ emailId: sent.body.id, mode: 'test', subject: 'Hi' });
  });

  it('retries a failing endpoint with growing gaps and the same webhook-id, then marks the delivery failed', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    receiver.answerWith(() => ({ status: 503, body: 'busy, try later' }));
    await registerDomain(org.apiKey);
    const gaps: number[] = [];
    let last = app.clock.now().getTime();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await sweepWebhookDeliveries(deps());
      expect(receiver.received).toHaveLength(attempt);
      const [delivery] = await deliveriesOf(org.apiKey, hook.id);
      expect(delivery).toMatchObject({ attempts: attempt, responseStatus: 503, status: attempt < 4 ? 'pending' : 'failed' });
      if (attempt === 4) {
        expect(delivery!.nextAttemptAt).toBeNull();
        break;
      }
      const next = new Date(delivery!.nextAttemptAt).getTime();
      gaps.push(next - app.clock.now().getTime());
      // Not due a moment before its time.
      app.clock.set(new Date(next - 1));
      expect((await sweepWebhookDeliveries(deps())).handled).toBe(0);
      app.clock.set(new Date(next));
      last = next;
    }
    expect(last).toBeGreaterThan(0);
    expect(gaps).toEqual([RETRY_BASE_MS, 10 * RETRY_BASE_MS, 100 * RETRY_BASE_MS]);
    expect(new Set(receiver.received.map((received) => received.headers['webhook-id'])).size).toBe(1);
    for (const received of receiver.received) expect(verifies(received, hook.secret)).toBe(true);
    const [delivery] = await deliveriesOf(org.apiKey, hook.id);
    const detail = await app.request('GET', `/api/webhooks/${hook.id}/deliveries/${delivery!.id}`, { key: org.apiKey });
    expect(detail.body.attemptsMade).toHaveLength(4);
    expect(detail.body.attemptsMade[0]).toMatchObject({ trigger: 'scheduled', succeeded: false, responseStatus: 503, error: 'answered 503', responseExcerpt: 'busy, try later' });
    expect(JSON.parse(detail.body.payload)).toMatchObject({ type: 'domain.created' });
    // Nothing is attempted again, however late.
    app.clock.advance(86_400_000);
    expect((await sweepWebhookDeliveries(deps())).handled).toBe(0);
  });

  it('counts a redirect as a failure and never follows it', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    receiver.answerWith((received) => (received.path === '/hook' ? { status: 307, headers: { location: hookUrl('/elsewhere') } } : { status: 200 }));
    await registerDomain(org.apiKey);
    await sweepWebhookDeliveries(deps());
    expect(receiver.received.map((received) => received.path)).toEqual(['/hook']);
    const [delivery] = await deliveriesOf(org.apiKey, hook.id);
    expect(delivery).toMatchObject({ status: 'pending', responseStatus: 307, attempts: 1, lastError: expect.stringMatching(/redirect.*not followed/) });
  });

  it('signs the next attempt with a rotated secret, a retry of an older event included', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    receiver.answerWith(() => ({ status: 500 }));
    await registerDomain(org.apiKey);
    await sweepWebhookDeliveries(deps());
    expect(verifies(receiver.received[0]!, hook.secret)).toBe(true);
    const rotated = (await app.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, { key: org.apiKey })).body.secret as string;
    receiver.answerWith(() => ({ status: 200 }));
    app.clock.advance(RETRY_BASE_MS);
    await sweepWebhookDeliveries(deps());
    expect(receiver.received).toHaveLength(2);
    expect(verifies(receiver.received[1]!, rotated)).toBe(true);
    expect(verifies(receiver.received[1]!, hook.secret)).toBe(false);
  });

  it('reads at most 64 KiB of an answer and keeps an excerpt', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    receiver.answerWith(() => ({ status: 200, body: 'x'.repeat(1_000_000) }));
    await registerDomain(org.apiKey);
    await sweepWebhookDeliveries(deps());
    const [delivery] = await deliveriesOf(org.apiKey, hook.id);
    expect(delivery!.status).toBe('succeeded');
    const detail = await app.request('GET', `/api/webhooks/${hook.id}/deliveries/${delivery!.id}`, { key: org.apiKey });
    expect(detail.body.attemptsMade[0].responseExcerpt).toHaveLength(2_048);
  });

  it('gives up on an endpoint that does not answer within 10 s', { timeout: 30_000 }, async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    receiver.answerWith(() => ({ status: 200, delayMs: 12_000 }));
    await registerDomain(org.apiKey);
    const started = performance.now();
    await sweepWebhookDeliveries(deps());
    expect(performance.now() - started).toBeLessThan(11_500);
    // The sweep stops waiting at its own 10 s budget, which began just before the request's 10 s:
    // the attempt's outcome may be written a moment after the sweep returned.
    let [delivery] = await deliveriesOf(org.apiKey, hook.id);
    for (let waited = 0; !delivery?.lastError && waited < 3_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [delivery] = await deliveriesOf(org.apiKey, hook.id);
    }
    expect(performance.now() - started).toBeLessThan(13_000);
    expect(delivery).toMatchObject({ status: 'pending', responseStatus: null, lastError: expect.stringMatching(/did not answer completely within 10000 ms/) });
  });

  it('stores an event and its deliveries together: a transaction that fails leaves neither', async () => {
    const org = await app.createOrg();
    await endpoint(org.apiKey, ['*']);
    await expect(
      deps().db.transaction(async (tx) => {
        await recordEvent(tx, deps(), { organizationId: org.organizationId, type: 'domain.created', data: { name: 'x.example.com' } });
        expect(await tx.select().from(webhookDeliveries)).toHaveLength(1);
        throw new Error('the change that caused the event failed');
      }),
    ).rejects.toThrow('failed');
    expect(await deps().db.select().from(events)).toHaveLength(0);
    expect(await deps().db.select().from(webhookDeliveries)).toHaveLength(0);
  });

  it('makes each attempt once when two workers sweep at the same time', async () => {
    const second = await startTestApp({ shareDatabaseWith: app, env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
    try {
      second.dns.a('hooks.example.com', '127.0.0.1');
      const org = await app.createOrg();
      await endpoint(org.apiKey, ['domain.updated']);
      await deps().db.transaction(async (tx) => {
        for (let i = 0; i < 200; i += 1) await recordEvent(tx, deps(), { organizationId: org.organizationId, type: 'domain.updated', data: { n: i } });
      });
      const reports = await Promise.all([sweepWebhookDeliveries(deps()), sweepWebhookDeliveries(second.runtime.deps)]);
      expect(reports[0].handled + reports[1].handled).toBe(200);
      expect(receiver.received).toHaveLength(200);
      expect(new Set(receiver.received.map((hook) => hook.headers['webhook-id'])).size).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('drops the pending deliveries of a deleted endpoint', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    await registerDomain(org.apiKey);
    await app.request('DELETE', `/api/webhooks/${hook.id}`, { key: org.apiKey });
    expect((await sweepWebhookDeliveries(deps())).handled).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('emails the owner once when an endpoint has failed every delivery for 24 hours', async () => {
    const org = await app.createOrg({ ownerEmail: 'owner@acme.test' });
    const hook = await endpoint(org.apiKey, ['domain.created', 'domain.deleted']);
    receiver.answerWith(() => ({ status: 500 }));
    const alerts = () => deps().db.select().from(systemEmails).where(eq(systemEmails.kind, 'webhook_failing'));
    const domain = await registerDomain(org.apiKey, 'one.example.com');
    await sweepWebhookDeliveries(deps());
    app.clock.advance(12 * 3_600_000);
    await app.request('DELETE', `/api/domains/${domain.body.id}`, { key: org.apiKey });
    await sweepWebhookDeliveries(deps());
    expect(await alerts()).toHaveLength(0);
    app.clock.advance(12 * 3_600_000 + 1_000);
    await registerDomain(org.apiKey, 'two.example.com');
    await sweepWebhookDeliveries(deps());
    const sent = await alerts();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ toAddress: 'owner@acme.test', subject: expect.stringMatching(/failed for 24 hours/) });
    expect(sent[0]!.text).toContain(hookUrl());
    // Once per failing streak.
    await registerDomain(org.apiKey, 'three.example.com');
    await sweepWebhookDeliveries(deps());
    expect(await alerts()).toHaveLength(1);
    // A success ends the streak; a new one a day long is told again.
    receiver.answerWith(() => ({ status: 200 }));
    await registerDomain(org.apiKey, 'four.example.com');
    await sweepWebhookDeliveries(deps());
    const [row] = await deps().db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row).toMatchObject({ failingSince: null, failureNotifiedAt: null });
  });
});

describe('replay and test ping', () => {
  it('replays a finished delivery with the same webhook-id and a fresh signature, and refuses one still retrying', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    receiver.answerWith(() => ({ status: 500 }));
    await registerDomain(org.apiKey);
    await sweepWebhookDeliveries(deps());
    const [pending] = await deliveriesOf(org.apiKey, hook.id);
    const refused = await app.request('POST', `/api/webhooks/${hook.id}/deliveries/${pending!.id}/replay`, { key: org.apiKey });
    expect(refused.body).toEqual({ error: expect.stringMatching(/still being retried/), code: 'CONFLICT' });
    for (let i = 0; i < 3; i += 1) {
      app.clock.advance(100 * RETRY_BASE_MS);
      await sweepWebhookDeliveries(deps());
    }
    expect((await deliveriesOf(org.apiKey, hook.id))[0]!.status).toBe('failed');
    receiver.answerWith(() => ({ status: 204 }));
    const replay = await app.request('POST', `/api/webhooks/${hook.id}/deliveries/${pending!.id}/replay`, { key: org.apiKey });
    expect(replay.body).toEqual({ deliveryId: pending!.id, status: 'succeeded', attempt: expect.objectContaining({ trigger: 'replay', succeeded: true, responseStatus: 204 }) });
    const first = receiver.received[0]!;
    const replayed = receiver.received.at(-1)!;
    expect(replayed.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(replayed.body).toBe(first.body);
    expect(verifies(replayed, hook.secret)).toBe(true);
    expect((await deliveriesOf(org.apiKey, hook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 5, responseStatus: 204 });
    const other = await app.createOrg({ name: 'Other' });
    expect((await app.request('POST', `/api/webhooks/${hook.id}/deliveries/${pending!.id}/replay`, { key: other.apiKey })).body.code).toBe('NOT_FOUND');
  });

  it('pings one endpoint with a signed webhook.test event and answers with what it said', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['email.bounced'], '/pinged');
    await endpoint(org.apiKey, ['*'], '/everything');
    receiver.answerWith(() => ({ status: 200, body: 'pong' }));
    const ping = await app.request('POST', `/api/webhooks/${hook.id}/test`, { key: org.apiKey });
    expect(ping.body).toEqual({ deliveryId: expect.any(String), status: 'succeeded', attempt: expect.objectContaining({ trigger: 'test', succeeded: true, responseStatus: 200, responseExcerpt: 'pong' }) });
    expect(receiver.received.map((received) => received.path)).toEqual(['/pinged']);
    expect(receiver.verify(receiver.received[0]!, hook.secret)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id, mode: 'live' } });
    await sweepWebhookDeliveries(deps());
    expect(receiver.received).toHaveLength(1);
    receiver.answerWith(() => ({ status: 404 }));
    const failed = await app.request('POST', `/api/webhooks/${hook.id}/test`, { key: org.apiKey });
    expect(failed.body).toMatchObject({ status: 'failed', attempt: { succeeded: false, responseStatus: 404, error: 'answered 404' } });
    const list = await app.request('GET', '/api/webhooks', { key: org.apiKey });
    expect(list.body.data.find((w: { id: string }) => w.id === hook.id).health).toEqual({ attempts24h: 2, succeeded24h: 1, lastFailureAt: expect.any(String), lastFailure: 'answered 404' });
  });
});

describe('the event log', () => {
  it('walks the events oldest first from a cursor, as webhooks carry them, filtered by type', { timeout: 20_000 }, async () => {
    const org = await app.createOrg();
    const other = await app.createOrg({ name: 'Other' });
    const first = await registerDomain(org.apiKey, 'one.example.com');
    await registerDomain(org.apiKey, 'two.example.com');
    await app.request('DELETE', `/api/domains/${first.body.id}`, { key: org.apiKey });
    await registerDomain(other.apiKey, 'other.example.com');
    const hook = await endpoint(org.apiKey, ['*']);
    await app.request('POST', `/api/webhooks/${hook.id}/test`, { key: org.apiKey });
    // Events are listed once they are older than the settle time.
    expect((await app.request('GET', '/api/events', { key: org.apiKey })).body.data).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    const page1 = await app.request('GET', '/api/events?limit=2', { key: org.apiKey });
    expect(page1.body.data.map((event: { type: string }) => event.type)).toEqual(['domain.created', 'domain.created']);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await app.request('GET', `/api/events?limit=2&after=${page1.body.nextCursor}`, { key: org.apiKey });
    expect(page2.body).toEqual({ data: [{ id: expect.any(String), type: 'domain.deleted', createdAt: expect.any(String), data: { domainId: first.body.id, name: 'one.example.com', mode: 'live' } }], nextCursor: page2.body.data[0].id, hasMore: false });
    const empty = await app.request('GET', `/api/events?after=${page2.body.nextCursor}`, { key: org.apiKey });
    expect(empty.body).toEqual({ data: [], nextCursor: page2.body.nextCursor, hasMore: false });
    const deleted = await app.request('GET', '/api/events?type=domain.deleted,email.bounced', { key: org.apiKey });
    expect(deleted.body.data).toHaveLength(1);
    expect((await app.request('GET', '/api/events?type=domain.nope', { key: org.apiKey })).body).toEqual({ error: expect.stringMatching(/type.*"domain.nope" is not an event type/), code: 'VALIDATION_ERROR' });
    // The id is the webhook-id of the event's deliveries.
    await sweepWebhookDeliveries(deps());
    expect((await app.request('GET', '/api/events?limit=1000', { key: other.apiKey })).body.data).toHaveLength(1);
  });
});

describe('the durable functions', () => {
  it('fan out due deliveries and attempt each, sleeping until every retry', async () => {
    const org = await app.createOrg();
    const hook = await endpoint(org.apiKey, ['domain.created']);
    await registerDomain(org.apiKey);
    const [deliver, fanOut] = functionsFor('webhook-delivery', deps);
    const [delivery] = await deliveriesOf(org.apiKey, hook.id);
    // No Inngest server here: the step that sends the events is stood in for, and its input checked.
    const sent: unknown[] = [];
    const fanned = await new InngestTestEngine({
      function: fanOut!,
      transformCtx: (ctx) => {
        const mocked = mockCtx(ctx);
        (mocked.step as { sendEvent: unknown }).sendEvent = async (_id: string, payload: unknown) => void sent.push(payload);
        return mocked;
      },
    }).execute({ events: [{ name: 'webhook-delivery/due', data: {} }] });
    expect(fanned.result).toEqual({ due: 1 });
    expect(sent).toEqual([[{ name: 'webhook-delivery/attempt', id: `${delivery!.id}-0`, data: { id: delivery!.id, webhookId: hook.id } }]]);
    receiver.answerWith(() => ({ status: receiver.received.length < 3 ? 500 : 200 }));
    const run = await new InngestTestEngine({
      function: deliver!,
      // Each sleep moves the business clock to the time it sleeps until.
      steps: [1, 2, 3].map((i) => ({ id: `wait-${i}`, handler: () => app.clock.set(new Date(app.clock.now().getTime() + 10 ** (i - 1) * RETRY_BASE_MS)) })),
    }).execute({ events: [{ name: 'webhook-delivery/attempt', data: { id: delivery!.id, webhookId: hook.id } }] });
    expect(run.result).toEqual({ id: delivery!.id, outcome: 'succeeded' });
    expect(receiver.received).toHaveLength(3);
    expect((await deliveriesOf(org.apiKey, hook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
  });
});
