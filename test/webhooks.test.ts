import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { closeOutboundConnections } from '@/server/net/outbound';

let app: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '1000' } });
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

const hookUrl = () => `http://hooks.example.com:${receiver.port}/hook`;

describe('webhooks', () => {
  it('delivers a signed domain event to a subscribed endpoint', async () => {
    const org = await app.createOrg();
    const created = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: hookUrl(), events: ['domain.created'] } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'acme.example.com' } });
    const report = await sweepWebhookDeliveries(app.runtime.deps);
    expect(report.handled).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const payload = receiver.verify(receiver.received[0]!, created.body.secret);
    expect(payload.type).toBe('domain.created');
    expect(payload.data).toMatchObject({ name: 'acme.example.com', mode: 'live' });
    const detail = await app.request('GET', `/api/webhooks/${created.body.id}`, { key: org.apiKey });
    expect(detail.body.deliveries).toEqual([expect.objectContaining({ eventType: 'domain.created', status: 'succeeded', attempts: 1, responseStatus: 200, nextAttemptAt: null })]);
  });
});
