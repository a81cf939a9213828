import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { emailAttachments, emails, organizations, usageCounters } from '@/db/schema';
import { closeRelayPools } from '@/server/mail/delivery';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { OPERATOR } from '@/server/services/audit/record';
import { setStatus } from '@/server/services/organizations/organizations';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { startTestGateway } from './support/gateway';
import { authenticateReceived } from './support/mail-auth';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// The SMTP relay gateway end to end: nodemailer as the client, the gateway on loopback, the send
// service and a real database behind it, the real pipeline delivering to an MX on loopback.
let app: TestApp;
let mx: MxServer;
let gateway: SmtpGateway;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' } });
  gateway = await startTestGateway(app);
});
afterAll(async () => {
  closeRelayPools();
  await gateway.close();
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
let sendingKey: string;
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  org = await sendingOrg(app, { plan: '10k' });
  app.dns.a('mx.example.net', '127.0.0.1');
  sendingKey = await keyFor(app, org.organizationId, 'sending_access', 'live');
});

const transport = (pass: string, options: { implicitTls?: boolean; method?: 'PLAIN' | 'LOGIN' } = {}) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: options.implicitTls ? gateway.ports.implicitTls! : gateway.ports.starttls!,
    secure: options.implicitTls ?? false,
    requireTLS: !options.implicitTls,
    auth: { user: 'apikey', pass, method: options.method ?? 'PLAIN' },
    tls: { rejectUnauthorized: false },
  });

/** Sends through the gateway; the SMTP reply either way. */
async function relay(message: nodemailer.SendMailOptions, pass = sendingKey, options: Parameters<typeof transport>[1] = {}): Promise<{ ok: boolean; response: string; code?: number; rejected?: string[] }> {
  const client = transport(pass, options);
  try {
    const info = await client.sendMail({ from: 'Acme Billing <billing@acme.example.com>', to: 'ada@example.net', subject: 'Receipt', text: 'Thanks', ...message });
    // nodemailer's SMTP transport lists the recipients the server refused at RCPT TO, with its reply.
    const refused = (info as { rejectedErrors?: Array<{ recipient: string; response: string }> }).rejectedErrors ?? [];
    const rejected = refused.map((error) => `${error.recipient} ${error.response}`);
    return { ok: true, response: info.response, rejected };
  } catch (error) {
    const failure = error as { response?: string; responseCode?: number; message: string };
    return { ok: false, response: failure.response ?? failure.message, code: failure.responseCode };
  } finally {
    client.close();
  }
}

const queuedId = (response: string) => /^250 2\.0\.0 Ok: queued as ([0-9a-f-]{36})$/.exec(response)?.[1];

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('a message relayed over SMTP', () => {
  it('is sent as POST /emails would send it: recipients, Reply-To, attachments and inline parts, tags, allowed headers, DKIM-signed at the MX', async () => {
    const sent = await relay({
      to: '"Ada L." <ada@example.net>',
      cc: 'bob@example.net',
      bcc: 'carol@example.net',
      replyTo: 'Support <support@acme.example.com>',
      subject: 'Your receipt №42',
      text: 'Thanks for your order',
      html: '<p>Thanks</p><img src="cid:logo@acme">',
      headers: { 'X-Tags': 'kind=receipt, shop=eu', 'X-Campaign': 'autumn', 'X-Not-Allowed-Either': 'kept: X-* is allowed', 'Received': 'dropped', 'Idempotency-Key': 'order-42' },
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 invoice'), contentType: 'application/pdf' },
        { filename: 'logo.png', content: PNG, contentType: 'image/png', cid: 'logo@acme' },
      ],
    });
    expect(sent.ok, sent.response).toBe(true);
    const id = queuedId(sent.response);
    expect(id, sent.response).toBeDefined();

    const detail = (await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body;
    expect(detail).toMatchObject({
      from: 'Acme Billing <billing@acme.example.com>',
      to: ['Ada L. <ada@example.net>'],
      cc: ['bob@example.net'],
      bcc: ['carol@example.net'],
      replyTo: ['Support <support@acme.example.com>'],
      subject: 'Your receipt №42',
      tags: [
        { name: 'kind', value: 'receipt' },
        { name: 'shop', value: 'eu' },
      ],
    });
    expect(detail.attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType]).sort()).toEqual([
      ['invoice.pdf', 'application/pdf'],
      ['logo.png', 'image/png'],
    ]);
    const [row] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id!));
    expect(row!.submittedVia).toBe('smtp');
    expect(row!.headers).toEqual({ 'X-Campaign': 'autumn', 'X-Not-Allowed-Either': 'kept: X-* is allowed' });
    expect((await app.runtime.deps.db.select({ cid: emailAttachments.contentId }).from(emailAttachments).where(eq(emailAttachments.emailId, id!))).map((a) => a.cid).sort()).toEqual(['logo@acme', null].sort());

    // The same Idempotency-Key again: the first email, nothing new stored.
    const again = await relay({ headers: { 'Idempotency-Key': 'order-42' } });
    expect(queuedId(again.response)).toBe(id);

    await sweepEmailDispatch(app.runtime.deps);
    // One envelope per recipient (each has its own VERP return path), Bcc included.
    expect(mx.messages.flatMap((m) => m.to).sort()).toEqual(['ada@example.net', 'bob@example.net', 'carol@example.net']);
    const received = mx.messages.find((m) => m.to.includes('ada@example.net'))!;
    const parsed = await simpleParser(received.raw, { skipImageLinks: true });
    expect(parsed.replyTo?.value).toEqual([{ name: 'Support', address: 'support@acme.example.com' }]);
    expect(parsed.headers.get('x-campaign')).toBe('autumn');
    expect(parsed.headers.has('received') && String(parsed.headers.get('received')).includes('dropped')).toBe(false);
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType, a.cid ?? null]).sort()).toEqual([
      ['invoice.pdf', 'application/pdf', null],
      ['logo.png', 'image/png', 'logo@acme'],
    ]);
    expect(parsed.attachments.find((a) => a.filename === 'logo.png')!.content.equals(PNG)).toBe(true);
    expect(parsed.html).toContain('cid:logo@acme');
    const auth = await authenticateReceived(received.raw, { dns: app.dns, sender: received.from });
    expect(auth.dkim.results.map((r: { status: { result: string } }) => r.status.result)).toContain('pass');
  });

  it('works over implicit TLS with AUTH LOGIN, and over STARTTLS with AUTH PLAIN', async () => {
    const tlsSent = await relay({}, sendingKey, { implicitTls: true, method: 'LOGIN' });
    expect(queuedId(tlsSent.response), tlsSent.response).toBeDefined();
    const plainSent = await relay({}, sendingKey, { method: 'PLAIN' });
    expect(queuedId(plainSent.response), plainSent.response).toBeDefined();
  });

  it('accepts a test key and plays the simulated lifecycle: nothing reaches the MX', async () => {
    const testKey = await keyFor(app, org.organizationId, 'sending_access', 'test');
    const sent = await relay({}, testKey);
    const id = queuedId(sent.response);
    expect(id, sent.response).toBeDefined();
    const [row] = await app.runtime.deps.db.select({ mode: emails.mode }).from(emails).where(eq(emails.id, id!));
    expect(row!.mode).toBe('test');
    await sweepEmailDispatch(app.runtime.deps);
    expect(mx.messages).toHaveLength(0);
  });
});

describe('logging in', () => {
  it('refuses an unknown key, a full_access key and a revoked key with 535 5.7.8 and a reason', async () => {
    const unknown = await relay({}, 'eu_live_' + 'x'.repeat(43));
    expect(unknown.response).toMatch(/^535 5\.7\.8 UNAUTHORIZED: /);

    const full = await relay({}, org.apiKey);
    expect(full.response).toMatch(/^535 5\.7\.8 FORBIDDEN: A full_access key cannot be an SMTP password/);

    const keys = (await app.request('GET', '/api/api-keys', { key: org.apiKey })).body.data as Array<{ id: string; permission: string }>;
    const sendingId = keys.find((k) => k.permission === 'sending_access')!.id;
    expect((await app.request('DELETE', `/api/api-keys/${sendingId}`, { key: org.apiKey })).status).toBe(200);
    expect((await relay({})).response).toMatch(/^535 5\.7\.8 UNAUTHORIZED/);
  });

  it('stops a key revoked while a connection is open at its next message', async () => {
    const client = nodemailer.createTransport({
      host: '127.0.0.1',
      port: gateway.ports.starttls!,
      pool: true,
      maxConnections: 1,
      requireTLS: true,
      auth: { user: 'apikey', pass: sendingKey },
      tls: { rejectUnauthorized: false },
    });
    try {
      const message = { from: 'billing@acme.example.com', to: 'ada@example.net', subject: 'One', text: 'x' };
      expect((await client.sendMail(message)).response).toMatch(/^250 2\.0\.0 Ok: queued as/);
      const keys = (await app.request('GET', '/api/api-keys', { key: org.apiKey })).body.data as Array<{ id: string; permission: string }>;
      await app.request('DELETE', `/api/api-keys/${keys.find((k) => k.permission === 'sending_access')!.id}`, { key: org.apiKey });
      await expect(client.sendMail({ ...message, subject: 'Two' })).rejects.toMatchObject({ responseCode: 535 });
    } finally {
      client.close();
    }
  });
});

describe('the refusals of POST /emails, as SMTP replies with the spec code', () => {
  it('answers each refusal with its enhanced status code, and stores nothing', async () => {
    const cases: Array<{ name: string; prepare?: () => Promise<void>; message: nodemailer.SendMailOptions; reply: RegExp }> = [
      { name: 'unverified domain', message: { from: 'me@unverified.example' }, reply: /^550 5\.7\.1 DOMAIN_NOT_VERIFIED: / },
      { name: 'brand impersonation', message: { from: '"PayPal Security" <billing@acme.example.com>' }, reply: /^550 5\.7\.1 SENDER_NOT_PERMITTED: / },
      {
        name: 'every recipient suppressed',
        prepare: async () => void (await app.request('POST', '/api/suppressions', { key: org.apiKey, body: { email: 'gone@example.net' } })),
        message: { to: 'gone@example.net' },
        reply: /^550 5\.7\.1 ALL_SUPPRESSED: /,
      },
      { name: 'no MX for any recipient', message: { to: 'ada@nowhere.invalid' }, reply: /^550 5\.1\.2 RECIPIENT_DOMAIN_UNDELIVERABLE: / },
      { name: 'no subject', message: { subject: '' }, reply: /^550 5\.6\.0 VALIDATION_ERROR: The message needs a Subject/ },
      { name: 'envelope sender on another domain', message: { envelope: { from: 'bounce@elsewhere.example', to: ['ada@example.net'] } }, reply: /^550 5\.7\.1 FORBIDDEN: The envelope sender/ },
      { name: 'bad tag', message: { headers: { 'X-Tags': 'kind=re ceipt' } }, reply: /^550 5\.6\.0 VALIDATION_ERROR: X-Tags/ },
      { name: 'only Bcc recipients', message: { to: undefined, bcc: 'ada@example.net' }, reply: /^550 5\.6\.0 VALIDATION_ERROR: The To header names none/ },
    ];
    for (const c of cases) {
      await c.prepare?.();
      const sent = await relay(c.message);
      expect(sent.response, c.name).toMatch(c.reply);
    }
    expect(await app.runtime.deps.db.$count(emails)).toBe(0);
  });

  it('answers account states: restricted and suspended permanently, paused for now', async () => {
    await setStatus(app.runtime.deps, org.organizationId, 'restricted', OPERATOR);
    expect((await relay({})).response).toMatch(/^550 5\.7\.1 ACCOUNT_RESTRICTED: /);
    await setStatus(app.runtime.deps, org.organizationId, 'suspended', OPERATOR);
    expect((await relay({})).response).toMatch(/^550 5\.7\.1 SENDING_SUSPENDED: /);
    await setStatus(app.runtime.deps, org.organizationId, 'paused', OPERATOR);
    expect((await relay({})).response).toMatch(/^451 4\.7\.1 SERVICE_PAUSED: /);
  });

  it('answers the daily ceiling with 451 (it clears tomorrow)', async () => {
    await app.runtime.deps.db.update(organizations).set({ plan: 'free' }).where(eq(organizations.id, org.organizationId));
    const key = sendingKey;
    const many = Array.from({ length: 50 }, (_, i) => `user${i}@example.net`);
    expect(queuedId((await relay({ to: many.slice(0, 50) }, key)).response)).toBeDefined();
    expect(queuedId((await relay({ to: many.slice(0, 50) }, key)).response)).toBeDefined();
    expect((await relay({}, key)).response).toMatch(/^451 4\.7\.1 DAILY_LIMIT_EXCEEDED: /);
  });

  it('answers the monthly quota with 550 (it lasts until the month ends or the plan changes)', async () => {
    const now = app.clock.now().toISOString();
    const used = { day: now.slice(0, 10), month: `${now.slice(0, 7)}-01`, monthRecipients: 10_000 };
    await app.runtime.deps.db.update(usageCounters).set(used).where(eq(usageCounters.organizationId, org.organizationId));
    expect((await relay({})).response).toMatch(/^550 5\.7\.1 MONTHLY_LIMIT_EXCEEDED: /);
  });

  it("holds a key pinned to one domain to it: another From domain is 550 5.7.1 FORBIDDEN", async () => {
    const pinned = await keyFor(app, org.organizationId, 'sending_access', 'live', org.domainId);
    expect(queuedId((await relay({}, pinned)).response)).toBeDefined();
    expect((await relay({ from: 'me@other.example' }, pinned)).response).toMatch(/^550 5\.7\.1 FORBIDDEN: This key may only send from its own domain/);
  });
});

describe('limits', () => {
  it('refuses the 51st recipient at RCPT TO, and a message over the attachment bound', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `user${i}@example.net`);
    // The 51st RCPT TO is refused for now; the client sends to the 50 it got accepted (and may send the rest in another message).
    const tooMany = await relay({ to: many });
    expect(tooMany.rejected).toEqual([expect.stringMatching(/^user50@example\.net 452 4\.5\.3 Too many recipients/)]);
    const [stored] = await app.runtime.deps.db.select({ to: emails.to }).from(emails);
    expect(stored!.to).toHaveLength(50);
    await app.runtime.deps.db.delete(emails);

    const big = await relay({ attachments: [{ filename: 'big.bin', content: Buffer.alloc(10 * 1024 * 1024 + 1, 1) }] });
    expect(big.response).toMatch(/^552 5\.3\.4 PAYLOAD_TOO_LARGE: Attachments may be at most/);
    expect(await app.runtime.deps.db.$count(emails)).toBe(0);
  });
});
