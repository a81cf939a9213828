import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { admitApiKey } from '@/server/services/api-keys/admission';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sendEmail } from '@/server/services/emails/accept/send';
import { RAW_SOURCE_SHOWN_BYTES } from '@/server/services/emails/message/raw-source';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, signUpPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { authenticateReceived } from './support/mail-auth';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

/**
 * The dashboard's two looks into an email beside its page (docs/emails.md, "Raw source", "Sent
 * by"): the raw MIME source, built again as it was sent, and which key, channel or broadcast sent it.
 */
let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example', SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
});
afterAll(async () => {
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  org = await sendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
});

const send = async (body: Record<string, unknown>, key = org.apiKey) => {
  const response = await app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject: 'Receipt', html: '<p>Thanks</p>', ...body } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
};

/** A tRPC query with an API key, as a first-party program (or the dashboard, with its cookie) asks it. */
async function trpcQuery(path: string, input: unknown, key = org.apiKey) {
  const response = await fetch(`${app.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.json();
  return { status: response.status, data: body.result?.data, error: body.error };
}

describe('the raw source', () => {
  it('is the message the receiving server got, byte for byte: DKIM-signed, links tracked, the attachment in it', async () => {
    const id = await send({
      html: '<h1>Invoice</h1><p><a href="https://acme.example.com/invoices/1042">See it online</a></p>',
      tracking: { opens: true, clicks: true },
      headers: { 'X-Entity-Ref-ID': 'inv-1042' },
      attachments: [{ filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 tiny').toString('base64'), content_type: 'application/pdf' }],
    });
    const before = await trpcQuery('emails.rawSource', { id });
    expect(before.status).toBe(200);
    expect(before.data).toMatchObject({ available: true, sent: false, truncated: false });

    await sweepEmailDispatch(app.runtime.deps);
    expect(mx.messages).toHaveLength(1);
    const { data } = await trpcQuery('emails.rawSource', { id });
    expect(data).toMatchObject({ available: true, sent: true, truncated: false, expiredAttachments: [] });
    expect(data.source).toBe(mx.messages[0]!.raw);
    expect(data.bytes).toBe(Buffer.byteLength(mx.messages[0]!.raw));
    expect(data.source).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=acme\.example\.com;/);
    expect(data.source).toContain('X-Entity-Ref-ID: inv-1042');
    expect(data.source).toContain('/t/c/');
    expect(data.source).toContain('filename=invoice.pdf');
    // Shown as it went: the signature verifies against the domain's published key.
    const auth = await authenticateReceived(data.source, { dns: app.dns, sender: mx.messages[0]!.from });
    expect(auth.dkim.results[0]?.status.result).toBe('pass');
    // The Date header is the one sent, not the time of the look.
    app.clock.advance(3_600_000);
    expect((await trpcQuery('emails.rawSource', { id })).data.source).toBe(data.source);
  });

  it('of an email not sent yet is the message as it would go; a test email shows what a live send would carry', async () => {
    const scheduled = await send({ scheduled_at: new Date(app.clock.now().getTime() + 3_600_000).toISOString(), text: 'Plain words' });
    const { data } = await trpcQuery('emails.rawSource', { id: scheduled });
    expect(data).toMatchObject({ available: true, sent: false });
    expect(data.source).toContain('Subject: Receipt');
    expect(data.source).toContain('Plain words');
    expect(data.source).not.toContain('Bcc:');

    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const simulated = await send({ from: 'hello@sandbox.eumail.eu', bcc: 'hidden@example.net' }, testKey);
    const test = await trpcQuery('emails.rawSource', { id: simulated }, testKey);
    expect(test.data).toMatchObject({ available: true, sent: false });
    expect(test.data.source).toContain('d=sandbox.eumail.eu;');
    expect(test.data.source).not.toContain('hidden@example.net');
  });

  it('shows the first 256 KiB of a large message; the whole is counted', async () => {
    const id = await send({ html: `<p>${'All work and no play. '.repeat(20_000)}</p>` });
    const { data } = await trpcQuery('emails.rawSource', { id });
    expect(data.truncated).toBe(true);
    expect(data.bytes).toBeGreaterThan(RAW_SOURCE_SHOWN_BYTES);
    expect(Buffer.byteLength(data.source)).toBe(RAW_SOURCE_SHOWN_BYTES);
  });

  it('says why it cannot be built once the sending domain is deleted', async () => {
    const id = await send({});
    expect((await app.request('DELETE', `/api/domains/${org.domainId}`, { key: org.apiKey })).status).toBe(200);
    const { data } = await trpcQuery('emails.rawSource', { id });
    expect(data).toEqual({ available: false, reason: expect.stringContaining('sending domain was deleted') });
  });

  it('is refused as reading the email is: another organization, a sending_access key, the other mode', async () => {
    const id = await send({});
    const other = await app.createOrg();
    expect((await trpcQuery('emails.rawSource', { id }, other.apiKey)).error.data.code).toBe('NOT_FOUND');
    const sending = await keyFor(app, org.organizationId, 'sending_access', 'live');
    expect((await trpcQuery('emails.rawSource', { id }, sending)).error.data.code).toBe('FORBIDDEN');
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await trpcQuery('emails.rawSource', { id }, testKey)).error.data.code).toBe('NOT_FOUND');
    expect((await trpcQuery('emails.rawSource', { id: 'not-a-uuid' })).error.data.code).toBe('BAD_REQUEST');
  });
});

describe('who sent an email', () => {
  it('names the API key, by its name, and says when it has been revoked', async () => {
    const id = await send({});
    const { data } = await trpcQuery('emails.sentBy', { id });
    expect(data).toEqual({ kind: 'api_key', key: { id: expect.any(String), name: expect.any(String), revoked: false }, broadcast: null });

    const ci = await keyFor(app, org.organizationId, 'sending_access', 'live');
    const viaCi = await send({}, ci);
    const [ciKey] = (await app.request('GET', '/api/api-keys', { key: org.apiKey })).body.data.filter((key: { name: string }) => key.name === 'sending_access-live');
    expect((await trpcQuery('emails.sentBy', { id: viaCi })).data.key).toEqual({ id: ciKey.id, name: 'sending_access-live', revoked: false });
    expect((await app.request('DELETE', `/api/api-keys/${ciKey.id}`, { key: org.apiKey })).status).toBe(200);
    expect((await trpcQuery('emails.sentBy', { id: viaCi })).data.key).toEqual({ id: ciKey.id, name: 'sending_access-live', revoked: true });
  });

  it('says "smtp" with the key for the relay, and "dashboard" for a person signed in', async () => {
    const admission = await admitApiKey(app.runtime.deps, org.apiKey);
    const relayed = await sendEmail(app.runtime.deps, admission!.principal, {
      from: 'hello@acme.example.com',
      to: ['ada@example.net'],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: 'Relayed',
      text: 'Hi',
      headers: {},
      tags: [],
      tracking: {},
      attachments: [],
      submittedVia: 'smtp',
    });
    expect((await trpcQuery('emails.sentBy', { id: relayed.id })).data).toMatchObject({ kind: 'smtp', key: { name: expect.any(String) } });

    const person = await signUpPerson(app, 'grace@example.com', { confirmed: true });
    app.dns.mx('example.com', 'mx.example.net');
    const sent = await dashboardCall(app, person.cookie, 'mutation', 'emails.send', { from: 'hello@sandbox.eumail.eu', to: 'grace@example.com', subject: 'Hi', text: 'Hi' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const seen = await dashboardCall(app, person.cookie, 'query', 'emails.sentBy', { id: sent.data.id });
    expect(seen.data).toEqual({ kind: 'dashboard', key: null, broadcast: null });
  });

  it("names a broadcast's message by its broadcast, whose source is the one its recipient got", async () => {
    await runAdminCommand(app.runtime.deps, 'org:plan', { org: org.organizationId, plan: '10k' });
    await runAdminCommand(app.runtime.deps, 'org:review', { org: org.organizationId, approve: true });
    const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'List' } })).body.id;
    await app.request('POST', `/api/audiences/${audienceId}/contacts/batch`, { key: org.apiKey, body: { contacts: [{ email: 'ada@example.net' }] } });
    const broadcast = await app.request('POST', '/api/broadcasts', {
      key: org.apiKey,
      body: { name: 'November news', audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject: 'News', html: '<p>News. <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>' },
    });
    expect(broadcast.status, broadcast.text).toBe(201);
    expect((await app.request('POST', `/api/broadcasts/${broadcast.body.id}/send`, { key: org.apiKey })).status).toBe(200);
    while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
    const [message] = await app.runtime.deps.db.select({ id: emails.id }).from(emails).where(eq(emails.broadcastId, broadcast.body.id));
    expect((await trpcQuery('emails.sentBy', { id: message!.id })).data).toEqual({ kind: 'broadcast', key: null, broadcast: { id: broadcast.body.id, name: 'November news' } });
    await sweepEmailDispatch(app.runtime.deps);
    expect((await trpcQuery('emails.rawSource', { id: message!.id })).data.source).toBe(mx.messages[0]!.raw);
    expect(mx.messages[0]!.raw).toMatch(/^List-Unsubscribe:/m);
  });

  it('is refused as reading the email is', async () => {
    const id = await send({});
    const other = await app.createOrg();
    expect((await trpcQuery('emails.sentBy', { id }, other.apiKey)).error.data.code).toBe('NOT_FOUND');
    const sending = await keyFor(app, org.organizationId, 'sending_access', 'live');
    expect((await trpcQuery('emails.sentBy', { id }, sending)).error.data.code).toBe('FORBIDDEN');
  });
});
