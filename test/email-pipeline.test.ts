import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { emails, suppressions } from '@/db/schema';
import { functionsFor } from '@/inngest/functions';
import { runAdminCommand } from '@/server/admin/commands';
import { parseVerpAddress, verpKeyFrom } from '@/server/mail/verp';
import { dispatchEmail, sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { startTestApp, type TestApp } from './support/app';
import { publishRecords } from './support/domains';
import { keyFor } from './support/keys';
import { authenticateReceived } from './support/mail-auth';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer, type Refusal } from './support/smtp-mx';

let app: TestApp;
let mx: MxServer;
let refuse: (address: string) => Refusal = () => null;
beforeAll(async () => {
  mx = await startMxServer({ rcpt: (address) => refuse(address) });
  app = await startTestApp({
    env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example', TEST_MODE_STEP_MS: '1000', SANDBOX_DOMAIN: 'sandbox.eumail.eu' },
  });
});
afterAll(async () => {
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  refuse = () => null;
  org = await sendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
});

const verifyReceived = (received: { raw: string; from: string }) => authenticateReceived(received.raw, { dns: app.dns, sender: received.from });

const send = async (body: Record<string, unknown>, key = org.apiKey) => {
  const response = await app.request('POST', '/api/emails', {
    key,
    body: { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject: 'Receipt', html: '<p>Thanks <a href="https://acme.example.com/r/1">receipt</a></p>', ...body },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
};
const detail = async (id: string, key = org.apiKey) => (await app.request('GET', `/api/emails/${id}`, { key })).body;
const history = async (id: string, key = org.apiKey) => (await detail(id, key)).events.map((e: { type: string; recipient: string | null }) => (e.recipient ? `${e.type} ${e.recipient}` : e.type));

describe('live delivery', () => {
  it('delivers to the recipient MX, DKIM-signed with the domain key and a VERP return path', async () => {
    const id = await send({});
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    expect(mx.messages).toHaveLength(1);
    const received = mx.messages[0]!;
    expect(parseVerpAddress(verpKeyFrom(app.runtime.deps.encryptionKey), received.from)).toMatchObject({ emailId: id, recipientIndex: 0 });
    const auth = await verifyReceived(received);
    expect(auth.dkim.results[0]?.status.result).toBe('pass');
    expect(auth.dkim.results[0]?.signingDomain).toBe('acme.example.com');
    expect(await detail(id)).toMatchObject({ status: 'delivered' });
    expect(await history(id)).toEqual(['email.queued', 'email.sent', 'email.delivered ada@example.net']);
  });

  it('sends once when two workers reach the same email together', async () => {
    const id = await send({});
    const [first, second, swept] = await Promise.all([dispatchEmail(app.runtime.deps, id), dispatchEmail(app.runtime.deps, id), sweepEmailDispatch(app.runtime.deps)]);
    expect([first, second].filter((r) => r.outcome === 'skipped').length + (swept.handled === 0 ? 1 : 0)).toBe(2);
    expect(mx.messages).toHaveLength(1);
  });

  it('bounces a recipient refused with 5xx, suppresses it, and still delivers to the other', async () => {
    refuse = (address) => (address === 'gone@example.net' ? { code: 550, message: '5.1.1 no such user' } : null);
    const id = await send({ to: ['ada@example.net', 'gone@example.net'] });
    await sweepEmailDispatch(app.runtime.deps);
    expect((await detail(id)).status).toBe('delivered');
    expect(await history(id)).toEqual(expect.arrayContaining(['email.bounced gone@example.net', 'email.delivered ada@example.net']));
    const [entry] = await app.runtime.deps.db.select().from(suppressions);
    expect(entry).toMatchObject({ email: 'gone@example.net', reason: 'bounce', emailId: id });
  });

  it('retries a 4xx with back-off and delivers when the server accepts', async () => {
    let refusals = 1;
    refuse = () => (refusals-- > 0 ? { code: 451, message: '4.7.1 try again later' } : null);
    const id = await send({});
    await sweepEmailDispatch(app.runtime.deps);
    const delayed = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id));
    expect(delayed[0]!.status).toBe('sending');
    expect(delayed[0]!.nextAttemptAt!.getTime() - app.clock.now().getTime()).toBe(60_000);
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(0);
    app.clock.advance(60_000);
    await sweepEmailDispatch(app.runtime.deps);
    expect((await detail(id)).status).toBe('delivered');
    expect(await history(id)).toEqual(['email.queued', 'email.delivery_delayed ada@example.net', 'email.sent', 'email.delivered ada@example.net']);
  });

  it('keeps retrying a refused connection for 72 hours, then fails', async () => {
    app.dns.mx('down.example.net', 'mx.down.example.net');
    app.dns.a('mx.down.example.net', '127.0.0.2');
    const id = await send({ to: 'x@down.example.net' });
    let attempts = 0;
    for (; attempts < 60; attempts += 1) {
      await sweepEmailDispatch(app.runtime.deps);
      const [row] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id));
      if (!row!.nextAttemptAt) break;
      app.clock.set(row!.nextAttemptAt);
    }
    const final = await detail(id);
    expect(final.status).toBe('failed');
    expect(final.events.at(-1)).toMatchObject({ type: 'email.failed', recipient: 'x@down.example.net' });
    expect(final.events.filter((e: { type: string }) => e.type === 'email.delivery_delayed').length).toBeGreaterThan(10);
    expect(mx.messages).toHaveLength(0);
  });
});

describe('sandbox domain', () => {
  it("sends from the shared sandbox domain to the owner's address, signed with the sandbox key", async () => {
    const { records } = (await runAdminCommand(app.runtime.deps, 'sandbox:records', {})) as { records: Array<{ record: string; type: string; name: string; value: string; parts?: string[] }> };
    publishRecords(app.dns, records);
    app.dns.mx('owner.example.net', 'mx.example.net');
    const owner = await app.createOrg({ name: 'Owner', ownerEmail: 'me@owner.example.net' });
    const id = await send({ from: 'Onboarding <hello@sandbox.eumail.eu>', to: 'me@owner.example.net' }, owner.apiKey);
    await sweepEmailDispatch(app.runtime.deps);
    expect((await detail(id, owner.apiKey)).status).toBe('delivered');
    const received = mx.messages[0]!;
    const auth = await verifyReceived(received);
    expect(auth.dkim.results[0]).toMatchObject({ signingDomain: 'sandbox.eumail.eu', status: { result: 'pass' } });
  });
});

describe('tracking', () => {
  it('delivers rewritten links and a pixel; following them records the open and the click and redirects to the stored URL', async () => {
    const id = await send({ tracking: { opens: true, clicks: true } });
    await sweepEmailDispatch(app.runtime.deps);
    const raw = mx.messages[0]!.raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    const click = new RegExp(`${app.runtime.config.appUrl}/t/c/([A-Za-z0-9_-]+)`).exec(raw)?.[1];
    const open = new RegExp(`${app.runtime.config.appUrl}/t/o/([A-Za-z0-9_-]+)`).exec(raw)?.[1];
    expect(click && open).toBeTruthy();
    expect(raw).not.toContain('href="https://acme.example.com/r/1"');
    const pixel = await fetch(`${app.url}/t/o/${open}`);
    expect(pixel.headers.get('content-type')).toBe('image/gif');
    const redirect = await fetch(`${app.url}/t/c/${click}?url=https://evil.example/`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://acme.example.com/r/1');
    expect(await history(id)).toEqual(['email.queued', 'email.sent', 'email.delivered ada@example.net', 'email.opened', 'email.clicked']);
  });
});

describe('scheduled sends', () => {
  it('waits for its time, and a cancel before it means nothing is sent', async () => {
    const at = new Date(app.clock.now().getTime() + 3_600_000).toISOString();
    const kept = await send({ scheduled_at: at });
    const canceled = await send({ scheduled_at: at });
    await app.request('POST', `/api/emails/${canceled}/cancel`, { key: org.apiKey });
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(0);
    app.clock.set(at);
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    expect((await detail(kept)).status).toBe('delivered');
    expect((await detail(canceled)).status).toBe('canceled');
    expect(mx.messages).toHaveLength(1);
  });

  it('either cancels (nothing sent) or answers 409 (sent) when the cancel races the dispatch, never both', async () => {
    for (let round = 0; round < 5; round += 1) {
      mx.messages.length = 0;
      const at = new Date(app.clock.now().getTime() + 1_000).toISOString();
      const id = await send({ scheduled_at: at });
      app.clock.set(at);
      const [dispatched, cancel] = await Promise.all([dispatchEmail(app.runtime.deps, id), app.request('POST', `/api/emails/${id}/cancel`, { key: org.apiKey })]);
      if (cancel.status === 200) {
        expect(dispatched.outcome).toBe('skipped');
        expect(mx.messages).toHaveLength(0);
      } else {
        expect(cancel.status).toBe(409);
        expect(mx.messages).toHaveLength(1);
      }
    }
  });
});

describe('test mode', () => {
  it('plays sent, delivered, opened and clicked, bounces bounced@ and complains for complained@, and delivers nothing', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const id = await send({ to: ['ada@example.net', 'bounced@example.net', 'complained@example.net'], tracking: { opens: true, clicks: true } }, testKey);
    for (let step = 0; step < 6; step += 1) {
      await sweepEmailDispatch(app.runtime.deps);
      app.clock.advance(1_000);
    }
    expect(await history(id, testKey)).toEqual([
      'email.queued',
      'email.sent',
      'email.delivered ada@example.net',
      'email.bounced bounced@example.net',
      'email.delivered complained@example.net',
      'email.complained complained@example.net',
      'email.opened ada@example.net',
      'email.clicked ada@example.net',
    ]);
    expect((await detail(id, testKey)).events.at(-1).data.url).toBe('https://acme.example.com/r/1');
    expect((await detail(id, testKey)).status).toBe('complained');
    expect(mx.messages).toHaveLength(0);
    expect(await app.runtime.deps.db.select().from(suppressions)).toHaveLength(0);
  });

  it('stops after delivered when tracking is off', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const id = await send({}, testKey);
    for (let step = 0; step < 4; step += 1) {
      await sweepEmailDispatch(app.runtime.deps);
      app.clock.advance(1_000);
    }
    expect(await history(id, testKey)).toEqual(['email.queued', 'email.sent', 'email.delivered ada@example.net']);
    expect((await detail(id, testKey)).status).toBe('delivered');
  });
});

describe('Inngest function', () => {
  it('email-dispatch delivers the email named by the event', async () => {
    const id = await send({});
    const [dispatch] = functionsFor('email-dispatch', () => app.runtime.deps);
    const { result } = await new InngestTestEngine({ function: dispatch! }).execute({ events: [{ name: 'email-dispatch/due', data: { id } }] });
    expect(result).toEqual({ id, outcome: 'delivered' });
    expect(mx.messages).toHaveLength(1);
  });
});
