import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { domains, emails } from '@/db/schema';
import { recordDeliveryReport } from '@/server/services/bounces/reports';
import { sweepBroadcasts } from '@/server/services/broadcasts/fan-out';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { recordOpen, resolveClick } from '@/server/services/tracking/records';
import { clickToken, openToken } from '@/server/services/tracking/tokens';
import { startTestApp, type TestApp } from './support/app';
import { authenticateReceived } from './support/mail-auth';
import { reviewedSendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({
    env: { APP_URL: 'https://mail.eumail.test', SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' },
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
  org = await reviewedSendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
});

const verifyReceived = (received: { raw: string; from: string }) => authenticateReceived(received.raw, { dns: app.dns, sender: received.from });

/** A broadcast to these addresses, sent and fanned out; the ids of its emails by address. */
async function broadcastTo(addresses: string[], tracking = false): Promise<{ id: string; emailOf: Map<string, string> }> {
  const audienceId = (await app.request('POST', '/api/audiences', { key: org.apiKey, body: { name: 'List' } })).body.id;
  await app.request('POST', `/api/audiences/${audienceId}/contacts/batch`, { key: org.apiKey, body: { contacts: addresses.map((email) => ({ email })) } });
  if (tracking) await app.runtime.deps.db.update(domains).set({ openTracking: true, clickTracking: true }).where(eq(domains.organizationId, org.organizationId));
  const created = await app.request('POST', '/api/broadcasts', {
    key: org.apiKey,
    body: { audience_id: audienceId, from: 'Acme News <news@acme.example.com>', subject: 'News', html: '<p>Read <a href="https://acme.example.com/post">the post</a>. <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>' },
  });
  expect(created.status, created.text).toBe(201);
  expect((await app.request('POST', `/api/broadcasts/${created.body.id}/send`, { key: org.apiKey })).status).toBe(200);
  while ((await sweepBroadcasts(app.runtime.deps)).outcomes.more);
  const rows = await app.runtime.deps.db.select({ id: emails.id, to: emails.to }).from(emails).where(eq(emails.broadcastId, created.body.id));
  return { id: created.body.id, emailOf: new Map(rows.map((row) => [row.to[0]!, row.id])) };
}

const counts = async (id: string) => (await app.request('GET', `/api/broadcasts/${id}`, { key: org.apiKey })).body.counts;

describe('broadcast messages on the wire', () => {
  it('carry List-Unsubscribe, List-Unsubscribe-Post and Precedence under a DKIM signature that verifies, and a broadcast Feedback-ID', async () => {
    const { id } = await broadcastTo(['ada@example.net']);
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    expect(mx.messages).toHaveLength(1);
    const received = mx.messages[0]!;
    const auth = await verifyReceived(received);
    const dkim = auth.dkim.results[0]!;
    expect(dkim.status.result).toBe('pass');
    expect(dkim.signingDomain).toBe('acme.example.com');
    const signed = /^DKIM-Signature:[\s\S]*?\bh=([^;]+);/im.exec(received.raw)![1]!.replace(/\s+/g, '').toLowerCase().split(':');
    expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject']));
    // Long header fields arrive folded (RFC 5322 §2.2.3): unfold before reading them.
    const header = received.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    expect(header).toMatch(/^List-Unsubscribe: <https:\/\/mail\.eumail\.test\/unsubscribe\/[A-Za-z0-9_-]+>,\s+<mailto:u-[A-Za-z0-9_-]+@mx\.eumail\.example>\r?$/m);
    expect(header).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(header).toMatch(/^Precedence: bulk\r?$/m);
    expect(header).toMatch(new RegExp(`^Feedback-ID: ${id}:${org.organizationId}:broadcast:eumail`, 'm'));
  });
});

describe('counts', () => {
  it('move with delivery, bounces and complaints, and count each email opened or clicked once', async () => {
    const { id, emailOf } = await broadcastTo(['ada@example.net', 'grace@example.net', 'linus@example.net'], true);
    expect(await counts(id)).toMatchObject({ queued: 3, sent: 0, delivered: 0 });
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(3);
    expect(await counts(id)).toMatchObject({ sent: 3, delivered: 3, bounced: 0 });
    await recordDeliveryReport(app.runtime.deps, { emailId: emailOf.get('grace@example.net')!, recipientIndex: 0, kind: 'hard', diagnostic: '550 gone' });
    await recordDeliveryReport(app.runtime.deps, { emailId: emailOf.get('linus@example.net')!, recipientIndex: 0, kind: 'complaint' });
    expect(await counts(id)).toMatchObject({ bounced: 1, complained: 1 });
    const ada = emailOf.get('ada@example.net')!;
    const key = app.runtime.deps.encryptionKey;
    await recordOpen(app.runtime.deps, openToken(key, ada));
    app.clock.advance(120_000);
    await recordOpen(app.runtime.deps, openToken(key, ada));
    expect(await resolveClick(app.runtime.deps, clickToken(key, ada, 0))).toBe('https://acme.example.com/post');
    app.clock.advance(120_000);
    await resolveClick(app.runtime.deps, clickToken(key, ada, 0));
    expect(await counts(id)).toMatchObject({ opened: 1, clicked: 1 });
  });
});

describe("a contact's engagement summary", () => {
  const person = { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)', ip: '203.0.113.9' };
  const summaryOf = async (email: string) =>
    (await app.request('GET', `/api/contacts/${encodeURIComponent(email)}`, { key: org.apiKey })).body.engagement as Record<string, string | null>;

  it("moves with delivery and with a person's opens and clicks, not a scanner's", async () => {
    const { emailOf } = await broadcastTo(['ada@example.net', 'grace@example.net'], true);
    expect(await summaryOf('ada@example.net')).toEqual({ lastDeliveredAt: null, lastOpenedAt: null, lastClickedAt: null });
    await sweepEmailDispatch(app.runtime.deps);
    const delivered = app.clock.now().toISOString();
    expect(await summaryOf('ada@example.net')).toEqual({ lastDeliveredAt: delivered, lastOpenedAt: null, lastClickedAt: null });
    const key = app.runtime.deps.encryptionKey;
    const ada = emailOf.get('ada@example.net')!;
    // A scanner's open (no user agent) and click are not the person's.
    app.clock.advance(300_000);
    await recordOpen(app.runtime.deps, openToken(key, ada));
    await resolveClick(app.runtime.deps, clickToken(key, ada, 0));
    expect(await summaryOf('ada@example.net')).toMatchObject({ lastOpenedAt: null, lastClickedAt: null });
    app.clock.advance(600_000);
    await recordOpen(app.runtime.deps, openToken(key, ada), person);
    const opened = app.clock.now().toISOString();
    app.clock.advance(60_000);
    await resolveClick(app.runtime.deps, clickToken(key, ada, 0), person);
    expect(await summaryOf('ada@example.net')).toEqual({ lastDeliveredAt: delivered, lastOpenedAt: opened, lastClickedAt: app.clock.now().toISOString() });
    // Grace received hers, and did nothing with it.
    expect(await summaryOf('grace@example.net')).toEqual({ lastDeliveredAt: delivered, lastOpenedAt: null, lastClickedAt: null });
  });

  it("is a broadcast copy's alone: transactional mail to the same address moves neither it nor a broadcast's counts, alone or delivered beside copies", async () => {
    const receipt = async (to: string) => {
      const sent = await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'Acme <billing@acme.example.com>', to, subject: 'Receipt', text: 'Thanks' } });
      expect(sent.status, sent.text).toBe(200);
      return sent.body.id as string;
    };
    const { id } = await broadcastTo(['ada@example.net', 'grace@example.net']);
    await receipt('ada@example.net');
    // The copies and a receipt in one sweep (their outcomes stored together), then a receipt alone.
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(3);
    const delivered = app.clock.now().toISOString();
    expect(await summaryOf('ada@example.net')).toEqual({ lastDeliveredAt: delivered, lastOpenedAt: null, lastClickedAt: null });
    expect(await counts(id)).toMatchObject({ sent: 2, delivered: 2 });
    app.clock.advance(3_600_000);
    const alone = await receipt('grace@example.net');
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    expect((await app.request('GET', `/api/emails/${alone}`, { key: org.apiKey })).body.status).toBe('delivered');
    expect(await summaryOf('grace@example.net')).toEqual({ lastDeliveredAt: delivered, lastOpenedAt: null, lastClickedAt: null });
    expect(await counts(id)).toMatchObject({ sent: 2, delivered: 2 });
    expect(mx.messages).toHaveLength(4);
  });
});
