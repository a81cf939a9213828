import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer, type Refusal } from './support/smtp-mx';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// Bounces explained end to end: a real MX refuses, the classification lands in GET /emails/{id}
// and in the signed webhook payload (docs/bounces.md, "Bounces explained").

let app: TestApp;
let mx: MxServer;
let receiver: WebhookReceiver;
let refuse: (address: string) => Refusal = () => null;
beforeAll(async () => {
  mx = await startMxServer({ rcpt: (address) => refuse(address) });
  receiver = await startWebhookReceiver();
  app = await startTestApp({
    env: {
      SMTP_MX_PORT: String(mx.port),
      SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      MAIL_HOST: 'mx.eumail.example',
      TEST_MODE_STEP_MS: '1000',
      SANDBOX_DOMAIN: 'sandbox.eumail.eu',
    },
  });
});
afterAll(async () => {
  await closeOutboundConnections();
  await app.close();
  await receiver.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  refuse = () => null;
  receiver.received.length = 0;
  org = await sendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
  app.dns.a('hooks.example.com', '127.0.0.1');
});

async function subscribe(events: string[]): Promise<{ secret: string }> {
  const created = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: `http://hooks.example.com:${receiver.port}/hook`, events } });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

async function send(body: Record<string, unknown>, key = org.apiKey): Promise<string> {
  const response = await app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', subject: 'Receipt', text: 'Thanks', ...body } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

const eventsOf = async (id: string, key = org.apiKey) => {
  const response = await app.request('GET', `/api/emails/${id}`, { key });
  expect(response.status).toBe(200);
  return response.body.events as Array<{ type: string; recipient: string | null; data: Record<string, any> }>;
};

const payloads = async (secret: string) => {
  await sweepWebhookDeliveries(app.runtime.deps);
  return receiver.received.map((hook) => receiver.verify(hook, secret));
};

describe('bounces explained', () => {
  it('classifies a live 550 5.1.1 refusal in the email history and in the delivered webhook payload', async () => {
    const hook = await subscribe(['email.bounced']);
    refuse = (address) => (address === 'gone@example.net' ? { code: 550, message: '5.1.1 <gone@example.net>: Recipient address rejected: User unknown in virtual mailbox table' } : null);
    const id = await send({ to: 'gone@example.net' });
    await sweepEmailDispatch(app.runtime.deps);

    const bounced = (await eventsOf(id)).find((event) => event.type === 'email.bounced');
    expect(bounced?.data).toMatchObject({
      response: expect.stringMatching(/550 5\.1\.1/),
      smtpCode: 550,
      source: 'smtp',
      bounce: { class: 'mailbox_unknown', explanation: expect.stringMatching(/^The address does not exist.*The address is now suppressed/) },
    });

    const [payload] = await payloads(hook.secret);
    expect(payload).toMatchObject({ type: 'email.bounced', data: { emailId: id, recipient: 'gone@example.net', smtpCode: 550, bounce: bounced!.data.bounce } });
  });

  it('classifies a delay (greylisting) and says it is retried', async () => {
    const hook = await subscribe(['email.delivery_delayed']);
    refuse = () => ({ code: 450, message: '4.7.1 <ada@example.net>: Recipient address rejected: Greylisted, please try again in 300 seconds' });
    const id = await send({ to: 'ada@example.net' });
    await sweepEmailDispatch(app.runtime.deps);

    const delayed = (await eventsOf(id)).find((event) => event.type === 'email.delivery_delayed');
    expect(delayed?.data.bounce).toEqual({ class: 'greylisted', explanation: expect.stringMatching(/Delivery is retried automatically/) });
    const [payload] = await payloads(hook.secret);
    expect(payload?.data.bounce).toEqual(delayed!.data.bounce);
  });

  it('explains the bounce and the complaint a test key simulates, without claiming a suppression', async () => {
    const hook = await subscribe(['email.bounced', 'email.complained']);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const id = await send({ to: ['bounced@example.net', 'complained@example.net'] }, testKey);
    for (let step = 0; step < 3; step++) {
      await sweepEmailDispatch(app.runtime.deps);
      app.clock.advance(1_000);
    }
    const events = await eventsOf(id, testKey);
    const bounced = events.find((event) => event.type === 'email.bounced');
    const complained = events.find((event) => event.type === 'email.complained');
    expect(bounced?.data.bounce).toEqual({ class: 'mailbox_unknown', explanation: expect.not.stringMatching(/suppressed/) });
    expect(complained?.data.bounce).toEqual({ class: 'complaint', explanation: expect.stringMatching(/marked the message as spam/) });
    expect(complained?.data.bounce.explanation).not.toMatch(/suppressed/);

    const received = await payloads(hook.secret);
    expect(received.map((payload) => [payload.type, (payload.data.bounce as { class: string }).class]).sort()).toEqual([
      ['email.bounced', 'mailbox_unknown'],
      ['email.complained', 'complaint'],
    ]);
  });
});
