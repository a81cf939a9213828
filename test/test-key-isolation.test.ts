import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { eq } from 'drizzle-orm';
import { webhooks } from '@/db/schema';
import { newId } from '@/server/ids';
import { newSigningSecret, sealSecret } from '@/server/services/webhooks/secrets';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { publishRecords } from './support/domains';
import { keyFor } from './support/keys';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from './support/webhook-receiver';

/*
 * Issue 28, point 7: a test key reads test-mode data only. The attacker holds a test key of the
 * organization (given to a CI job, say) and asks for everything the API answers about events and
 * webhook deliveries, and for the signing secret, over REST, tRPC and the dashboard in test mode.
 */

let app: TestApp;
let receiver: WebhookReceiver;
let person: DashboardPerson;
let liveKey: string;
let testKey: string;
let hook: { id: string; secret: string; testSecret: string };
let liveEmailId: string;
let testEmailId: string;
const LIVE_SUBJECT = 'Board minutes: acquisition of Globex';
const LIVE_RECIPIENT = 'ceo@example.net';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const verifies = (received: ReceivedHook, secret: string) => {
  try {
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};
const modeOf = (received: ReceivedHook) => (JSON.parse(received.body) as { data: { mode: string } }).data.mode;

/** A tRPC query with an API key, over plain HTTP (what any tRPC client sends). */
async function trpcQuery(key: string, path: string, input: unknown) {
  const response = await fetch(`${app.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: bearer(key) });
  const text = await response.text();
  return { status: response.status, text, data: (JSON.parse(text) as { result?: { data: any } }).result?.data };
}

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
  receiver = await startWebhookReceiver();
  app.dns.a('hooks.example.com', '127.0.0.1');
  app.dns.mx('example.net', 'mx.example.net');
  // A person's organization (so the dashboard can be asked too), with a verified domain.
  person = await signUpPerson(app, 'ada@acme.test', { confirmed: true });
  liveKey = await keyFor(app, person.organizationId, 'full_access', 'live');
  testKey = await keyFor(app, person.organizationId, 'full_access', 'test');
  const domain = await app.request('POST', '/api/domains', { key: liveKey, body: { name: 'acme.example.com' } });
  publishRecords(app.dns, domain.body.records);
  await sweepDomainChecks(app.runtime.deps);
  const created = await app.request('POST', '/api/webhooks', { key: liveKey, body: { url: `http://hooks.example.com:${receiver.port}/hook`, events: ['email.queued'] } });
  expect(created.status, created.text).toBe(201);
  hook = created.body;
  // One live email and one test email: their email.queued events go to the one endpoint.
  const live = await app.request('POST', '/api/emails', { key: liveKey, body: { from: 'Acme <hello@acme.example.com>', to: LIVE_RECIPIENT, subject: LIVE_SUBJECT, text: 'Confidential' } });
  expect(live.status, live.text).toBe(200);
  liveEmailId = live.body.id;
  const test = await app.request('POST', '/api/emails', { key: testKey, body: { from: 'Acme <hello@acme.example.com>', to: 'ci@example.net', subject: 'CI run', text: 'Hello' } });
  expect(test.status, test.text).toBe(200);
  testEmailId = test.body.id;
  expect((await sweepWebhookDeliveries(app.runtime.deps)).handled).toBe(2);
  // The event log lists events once they are 5 s old (services/events/log.ts).
  await new Promise((resolve) => setTimeout(resolve, 5_200));
});
afterAll(async () => {
  await closeOutboundConnections();
  await receiver.close();
  await app.close();
});

const liveDelivery = async () => ((await app.request('GET', `/api/webhooks/${hook.id}`, { key: liveKey })).body.deliveries as Array<Record<string, any>>).find((d) => d.eventId === liveEventId())!;
const liveEventId = () => String(receiver.received.find((received) => modeOf(received) === 'live')!.headers['webhook-id']);
const testEventId = () => String(receiver.received.find((received) => modeOf(received) === 'test')!.headers['webhook-id']);

describe('a test key and the event log', () => {
  it('GET /events lists test-mode events only, with or without a type filter; a live key still reads both', async () => {
    const all = await app.request('GET', '/api/events?limit=1000', { key: testKey });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((event: { id: string }) => event.id)).toEqual([testEventId()]);
    expect(all.body.data[0].data).toMatchObject({ emailId: testEmailId, mode: 'test' });
    const filtered = await app.request('GET', '/api/events?type=email.queued,domain.created,domain.updated', { key: testKey });
    expect(filtered.body.data.map((event: { id: string }) => event.id)).toEqual([testEventId()]);
    // Walking on from before the live event finds nothing more either.
    const after = await app.request('GET', `/api/events?after=${all.body.data[0].id}`, { key: testKey });
    expect(after.body).toEqual({ data: [], nextCursor: all.body.data[0].id, hasMore: false });
    for (const answer of [all, filtered]) {
      expect(answer.text).not.toContain(liveEmailId);
      expect(answer.text).not.toContain(LIVE_SUBJECT);
      expect(answer.text).not.toContain(LIVE_RECIPIENT);
    }

    const live = await app.request('GET', '/api/events?limit=1000', { key: liveKey });
    const ids = live.body.data.map((event: { id: string }) => event.id);
    expect(ids).toEqual(expect.arrayContaining([liveEventId(), testEventId()]));
    expect(live.body.data.find((event: { id: string }) => event.id === liveEventId()).data).toMatchObject({ emailId: liveEmailId, subject: LIVE_SUBJECT, mode: 'live' });
  });

  it('the same over tRPC with the test key', async () => {
    const listed = await trpcQuery(testKey, 'events.list', { limit: 1000 });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.data.data.map((event: { id: string }) => event.id)).toEqual([testEventId()]);
    expect(listed.text).not.toContain(LIVE_SUBJECT);
  });
});

describe('a test key and webhook deliveries', () => {
  it('reads deliveries of test-mode events only: the detail, the list (any status) and one delivery', async () => {
    const detail = await app.request('GET', `/api/webhooks/${hook.id}`, { key: testKey });
    expect(detail.status).toBe(200);
    expect(detail.body.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([testEventId()]);
    for (const query of ['', '?status=succeeded', '?limit=1']) {
      const page = await app.request('GET', `/api/webhooks/${hook.id}/deliveries${query}`, { key: testKey });
      expect(page.status).toBe(200);
      expect(page.body.data.map((d: { eventId: string }) => d.eventId), query).toEqual([testEventId()]);
      expect(page.body.nextCursor).toBeNull();
    }
    const live = await liveDelivery();
    const refused = await app.request('GET', `/api/webhooks/${hook.id}/deliveries/${live.id}`, { key: testKey });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: 'Webhook delivery not found', code: 'NOT_FOUND' });
    expect((await app.request('POST', `/api/webhooks/${hook.id}/deliveries/${live.id}/replay`, { key: testKey })).status).toBe(403);
    const own = detail.body.deliveries[0];
    const read = await app.request('GET', `/api/webhooks/${hook.id}/deliveries/${own.id}`, { key: testKey });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body.payload).data).toMatchObject({ emailId: testEmailId, mode: 'test' });

    // Over tRPC with the test key: the same filter.
    const trpcDetail = await trpcQuery(testKey, 'webhooks.get', { id: hook.id });
    expect(trpcDetail.data.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([testEventId()]);
    const trpcList = await trpcQuery(testKey, 'webhooks.deliveries', { id: hook.id });
    expect(trpcList.data.data.map((d: { eventId: string }) => d.eventId)).toEqual([testEventId()]);
    expect((await trpcQuery(testKey, 'webhooks.delivery', { id: hook.id, deliveryId: live.id })).status).toBe(404);
    for (const answer of [trpcDetail, trpcList]) expect(answer.text).not.toContain(live.id);

    // A live key still sees both modes' deliveries of its endpoint.
    const liveDetail = await app.request('GET', `/api/webhooks/${hook.id}`, { key: liveKey });
    expect(liveDetail.body.deliveries.map((d: { eventId: string }) => d.eventId).sort()).toEqual([liveEventId(), testEventId()].sort());
    expect((await app.request('GET', `/api/webhooks/${hook.id}/deliveries/${live.id}`, { key: liveKey })).status).toBe(200);
  });
});

describe('a test key and the signing secrets', () => {
  it('live events are signed with the live secret only; test events with the test secret too', () => {
    const live = receiver.received.find((received) => modeOf(received) === 'live')!;
    const test = receiver.received.find((received) => modeOf(received) === 'test')!;
    expect(verifies(live, hook.secret)).toBe(true);
    expect(verifies(live, hook.testSecret)).toBe(false);
    expect(verifies(test, hook.testSecret)).toBe(true);
    // A receiver holding the live secret verifies both modes, as before.
    expect(verifies(test, hook.secret)).toBe(true);
    expect(String(test.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(String(live.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('GET /webhooks/{id}/secret gives a test key the test secret and nothing that signs a live event', async () => {
    const rest = await app.request('GET', `/api/webhooks/${hook.id}/secret`, { key: testKey });
    expect(rest.body).toEqual({ mode: 'test', secret: hook.testSecret });
    const trpc = await trpcQuery(testKey, 'webhooks.secret', { id: hook.id });
    expect(trpc.data).toEqual({ mode: 'test', secret: hook.testSecret });
    // What it got cannot make a live event the receiver accepts: a forged body signed with it fails.
    const forged = JSON.stringify({ type: 'email.bounced', createdAt: new Date().toISOString(), data: { emailId: liveEmailId, mode: 'live' } });
    const at = new Date();
    const headers = { 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(rest.body.secret).sign('msg_forged', at, forged) };
    expect(() => new Webhook(hook.secret).verify(forged, headers)).toThrow();
    // A live key reads the live secret, with the test one beside it.
    expect((await app.request('GET', `/api/webhooks/${hook.id}/secret`, { key: liveKey })).body).toEqual({ mode: 'live', secret: hook.secret, testSecret: hook.testSecret });
  });

  it('a test key rotates the test secret only; asking for the live one is 403; the next deliveries follow', async () => {
    const refused = await app.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, { key: testKey, body: { mode: 'live' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'A test key cannot change live state', code: 'FORBIDDEN' });
    const rotated = await app.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, { key: testKey });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body).toEqual({ mode: 'test', secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(hook.testSecret);
    const after = await app.request('GET', `/api/webhooks/${hook.id}/secret`, { key: liveKey });
    expect(after.body).toEqual({ mode: 'live', secret: hook.secret, testSecret: rotated.body.secret });

    const before = receiver.received.length;
    await app.request('POST', '/api/emails', { key: liveKey, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Live again', text: 'x' } });
    await app.request('POST', '/api/emails', { key: testKey, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Test again', text: 'x' } });
    expect((await sweepWebhookDeliveries(app.runtime.deps)).handled).toBe(2);
    const fresh = receiver.received.slice(before);
    const live = fresh.find((received) => modeOf(received) === 'live')!;
    const test = fresh.find((received) => modeOf(received) === 'test')!;
    expect([verifies(live, hook.secret), verifies(live, rotated.body.secret), verifies(live, hook.testSecret)]).toEqual([true, false, false]);
    expect([verifies(test, rotated.body.secret), verifies(test, hook.testSecret), verifies(test, hook.secret)]).toEqual([true, false, true]);
    hook.testSecret = rotated.body.secret;
  });

  it('a replay of a test event by a live key is signed with the test secret too', async () => {
    const detail = await app.request('GET', `/api/webhooks/${hook.id}`, { key: testKey });
    const before = receiver.received.length;
    const replay = await app.request('POST', `/api/webhooks/${hook.id}/deliveries/${detail.body.deliveries[0].id}/replay`, { key: liveKey });
    expect(replay.status, replay.text).toBe(200);
    const [again] = receiver.received.slice(before);
    expect(modeOf(again!)).toBe('test');
    expect(verifies(again!, hook.testSecret)).toBe(true);
  });
});

describe('an endpoint made before test-mode secrets', () => {
  it('gets one on its first test-mode delivery, the one a test key then reads, sealed and kept', async () => {
    const id = newId();
    const now = app.clock.now();
    const liveSecret = newSigningSecret();
    await app.runtime.deps.db.insert(webhooks).values({
      id,
      organizationId: person.organizationId,
      url: `http://hooks.example.com:${receiver.port}/older`,
      events: ['email.queued'],
      secretSealed: sealSecret(liveSecret, app.runtime.deps.encryptionKey),
      createdAt: now,
      updatedAt: now,
    });
    await app.request('POST', '/api/emails', { key: testKey, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Older endpoint', text: 'x' } });
    await sweepWebhookDeliveries(app.runtime.deps);
    const received = receiver.received.filter((hook) => hook.path === '/older');
    expect(received).toHaveLength(1);
    const [row] = await app.runtime.deps.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row!.testSecretSealed).toMatch(/^v1\./);
    const read = await app.request('GET', `/api/webhooks/${id}/secret`, { key: testKey });
    expect(read.body.mode).toBe('test');
    expect(read.body.secret).not.toBe(liveSecret);
    expect(verifies(received[0]!, read.body.secret)).toBe(true);
    expect(verifies(received[0]!, liveSecret)).toBe(true);
    await app.runtime.deps.db.delete(webhooks).where(eq(webhooks.id, id));
  });
});

describe('the dashboard in test mode', () => {
  it('shows test-mode deliveries and the test secret only, as a test key; in live mode both', async () => {
    const testMode = `${person.cookie}; eumail_mode=test`;
    const secret = await dashboardCall(app, testMode, 'query', 'webhooks.secret', { id: hook.id });
    expect(secret.data).toEqual({ mode: 'test', secret: hook.testSecret });
    const detail = await dashboardCall(app, testMode, 'query', 'webhooks.get', { id: hook.id });
    expect(detail.data.deliveries.length).toBeGreaterThan(0);
    const testIds = new Set(receiver.received.filter((received) => modeOf(received) === 'test').map((received) => String(received.headers['webhook-id'])));
    for (const delivery of detail.data.deliveries as Array<{ eventId: string }>) expect(testIds.has(delivery.eventId)).toBe(true);
    const events = await dashboardCall(app, testMode, 'query', 'events.list', { limit: 1000 });
    expect(JSON.stringify(events.body)).not.toContain(LIVE_SUBJECT);

    const liveMode = await dashboardCall(app, person.cookie, 'query', 'webhooks.secret', { id: hook.id });
    expect(liveMode.data).toEqual({ mode: 'live', secret: hook.secret, testSecret: hook.testSecret });
  });
});
