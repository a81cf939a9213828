import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { openDatabase, queryRows, type Database } from '@/db/client';
import { domains, emailEvents, emailRecipients, emails, events, suppressions } from '@/db/schema';
import { parseReport } from '@/server/mail/bounce-parser';
import { startBounceServer, type BounceServer } from '@/server/mail/bounce-server';
import { verpAddress, verpKeyFrom } from '@/server/mail/verp';
import { recordDeliveryReport } from '@/server/services/bounces/reports';
import { aggregateEmailStatus } from '@/server/services/emails/aggregate-status';
import { captureLog } from './support/log-capture';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

// ---------------------------------------------------------------------------------------------
// Reports as remote servers write them

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

interface DsnOptions {
  recipient?: string;
  action?: string;
  status?: string;
  diagnostic?: string | null;
  messageId?: string;
  /** Content-Transfer-Encoding of the delivery-status part. */
  base64?: boolean;
  partType?: string;
  extraRecipients?: string;
}

/** An RFC 3464 report: human-readable part, message/delivery-status, text/rfc822-headers. */
function dsn(options: DsnOptions = {}): string {
  const recipient = options.recipient ?? 'ada@example.net';
  const action = options.action ?? 'failed';
  const status = options.status ?? '5.1.1';
  const diagnostic = options.diagnostic === undefined ? `smtp; 550 5.1.1 <${recipient}>: Recipient address\n    rejected: User unknown in virtual mailbox table` : options.diagnostic;
  const fields = [
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    'Remote-MTA: dns; mx.example.net',
    ...(diagnostic ? [`Diagnostic-Code: ${diagnostic}`] : []),
  ].join('\n');
  const body = `Reporting-MTA: dns; relay.example.org\nX-Postfix-Queue-ID: 4B2C61E0F\nArrival-Date: Sat, 21 Nov 2026 10:00:00 +0000\n\n${fields}\n${options.extraRecipients ? `\n${options.extraRecipients}\n` : ''}`;
  const statusPart = options.base64
    ? `Content-Type: ${options.partType ?? 'message/delivery-status'}\nContent-Transfer-Encoding: base64\n\n${Buffer.from(crlf(body)).toString('base64').replace(/(.{76})/g, '$1\n')}`
    : `Content-Type: ${options.partType ?? 'message/delivery-status'}\n\n${body}`;
  return crlf(`From: MAILER-DAEMON@relay.example.org (Mail Delivery System)
To: bounces@send.acme.example.com
Subject: Undelivered Mail Returned to Sender
Date: Sat, 21 Nov 2026 10:05:00 +0000
Message-ID: ${options.messageId ?? '<20261121100500.4B2C61E0F@relay.example.org>'}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4B2C61E0F.1763719500/relay.example.org"

This is a MIME-encapsulated message.

--4B2C61E0F.1763719500/relay.example.org
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host relay.example.org.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

--4B2C61E0F.1763719500/relay.example.org
Content-Description: Delivery report
${statusPart}
--4B2C61E0F.1763719500/relay.example.org
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

From: Acme <hello@acme.example.com>
To: ${recipient}
Subject: Your receipt
Message-ID: <0192aaaa-0000-7000-8000-000000000000@acme.example.com>

--4B2C61E0F.1763719500/relay.example.org--
`);
}

/** An RFC 5965 feedback report: human part, message/feedback-report, the original message. */
function arf(options: { recipient?: string; feedbackType?: string; messageId?: string } = {}): string {
  const recipient = options.recipient ?? 'ada@example.net';
  return crlf(`From: <feedback@fbl.example.net>
To: <bounces@send.acme.example.com>
Subject: FW: Your receipt
Date: Sat, 21 Nov 2026 11:00:00 +0000
Message-ID: ${options.messageId ?? '<fbl-1@fbl.example.net>'}
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report;
     boundary="part1_13d.2e68ed54_boundary"

--part1_13d.2e68ed54_boundary
Content-Type: text/plain; charset="US-ASCII"
Content-Transfer-Encoding: 7bit

This is an email abuse report for an email message received from IP
192.0.2.1 on Sat, 21 Nov 2026 10:00:00 +0000.

--part1_13d.2e68ed54_boundary
Content-Type: message/feedback-report

Feedback-Type: ${options.feedbackType ?? 'abuse'}
User-Agent: ExampleFBL/1.0
Version: 1
Original-Mail-From: <bounces+x@send.acme.example.com>
Original-Rcpt-To: <${recipient}>
Arrival-Date: Sat, 21 Nov 2026 10:00:00 +0000
Reported-Domain: acme.example.com
Source-IP: 192.0.2.1

--part1_13d.2e68ed54_boundary
Content-Type: message/rfc822
Content-Disposition: inline

From: Acme <hello@acme.example.com>
To: ${recipient}
Subject: Your receipt
MIME-Version: 1.0
Content-Type: text/plain
Message-ID: <0192aaaa-0000-7000-8000-000000000000@acme.example.com>
Date: Sat, 21 Nov 2026 09:59:00 +0000

Thanks
--part1_13d.2e68ed54_boundary--
`);
}

const autoReply = crlf(`From: Ada <ada@example.net>
To: bounces@send.acme.example.com
Subject: Out of office: Your receipt
Auto-Submitted: auto-replied
Message-ID: <ooo-1@example.net>
Content-Type: text/plain; charset=utf-8

I am away until Monday.
`);

// ---------------------------------------------------------------------------------------------
// Unit: the aggregation rule and the parser

describe('aggregateEmailStatus', () => {
  // The rule is SQL (the statements that change a recipient derive the status from the rows they hold): asked of the database.
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ url: process.env.DATABASE_URL });
  });
  afterAll(() => database.close());
  const of = async (...statuses: string[]) =>
    (await queryRows<{ status: string | null }>(database.db, sql`select ${aggregateEmailStatus(sql`s.status`)} as status from json_array_elements_text(${JSON.stringify(statuses)}::json) as s(status)`))[0]!.status;
  it.each([
    [['delivered'], 'delivered'],
    [['bounced'], 'bounced'],
    [['failed'], 'failed'],
    [['complained'], 'complained'],
    [['suppressed'], 'suppressed'],
    [['suppressed', 'suppressed'], 'suppressed'],
    [['delivered', 'bounced'], 'delivered'],
    [['bounced', 'delivered'], 'delivered'],
    [['bounced', 'failed'], 'bounced'],
    [['failed', 'suppressed'], 'failed'],
    [['bounced', 'suppressed'], 'bounced'],
    [['delivered', 'suppressed'], 'delivered'],
    [['delivered', 'complained', 'bounced'], 'complained'],
    [['complained', 'pending'], 'complained'],
    [['pending'], null],
    [['deferred', 'delivered'], null],
    [['bounced', 'pending', 'suppressed'], null],
    [['delivered', 'something-new'], null],
    [[], null],
  ])('%j → %s', async (statuses, expected) => {
    expect(await of(...statuses)).toBe(expected);
  });
});

describe('parseReport', () => {
  const parse = (raw: string) => parseReport(Buffer.from(raw));

  it('reads a failed DSN as a hard bounce, with the unfolded diagnostic, status, recipient and report id', async () => {
    expect(await parse(dsn())).toEqual({
      kind: 'hard',
      status: '5.1.1',
      diagnostic: '550 5.1.1 <ada@example.net>: Recipient address rejected: User unknown in virtual mailbox table',
      reportedRecipient: 'ada@example.net',
      reportId: '<20261121100500.4B2C61E0F@relay.example.org>',
    });
  });

  it.each([
    [{ action: 'delayed', status: '4.4.1', diagnostic: 'smtp; 451 4.4.1 try later' }, 'soft'],
    [{ action: 'failed', status: '4.2.2', diagnostic: 'smtp; 452 4.2.2 Mailbox full' }, 'soft'],
    [{ action: 'failed', status: '5.7.1' }, 'hard'],
    [{ action: 'FAILED', status: '5.1.10 (no such user)' }, 'hard'],
    [{ action: 'delivered', status: '2.0.0', diagnostic: null }, null],
    [{ action: 'relayed', status: '2.0.0', diagnostic: null }, null],
    [{ action: 'expanded', status: '2.0.0', diagnostic: null }, null],
  ])('maps %j to %s', async (options, kind) => {
    const report = await parse(dsn(options));
    expect(report?.kind ?? null).toBe(kind);
  });

  it('keeps the delay details and the enhanced status out of a comment', async () => {
    expect(await parse(dsn({ action: 'delayed', status: '4.4.7', diagnostic: 'X-Postfix; connect to mx.example.net[192.0.2.9]:25: Connection timed out' }))).toMatchObject({
      kind: 'soft',
      status: '4.4.7',
      diagnostic: 'connect to mx.example.net[192.0.2.9]:25: Connection timed out',
    });
    expect((await parse(dsn({ status: '5.1.10 (no such user)' })))?.status).toBe('5.1.10');
  });

  it('uses the Status class when the Action is missing', async () => {
    const raw = dsn().replace('Action: failed\r\n', '');
    expect((await parse(raw))?.kind).toBe('hard');
    expect((await parse(dsn({ status: '4.0.0' }).replace('Action: failed\r\n', '')))?.kind).toBe('soft');
  });

  it('reads a base64-encoded delivery-status part and the RFC 6533 global variant', async () => {
    expect(await parse(dsn({ base64: true }))).toMatchObject({ kind: 'hard', status: '5.1.1', reportedRecipient: 'ada@example.net' });
    expect(await parse(dsn({ partType: 'message/global-delivery-status' }))).toMatchObject({ kind: 'hard', status: '5.1.1' });
  });

  it('takes the most severe recipient of a report naming several', async () => {
    const raw = dsn({ action: 'delayed', status: '4.4.1', extraRecipients: 'Final-Recipient: rfc822; bob@example.net\nAction: failed\nStatus: 5.2.1\nDiagnostic-Code: smtp; 550 5.2.1 disabled' });
    expect(await parse(raw)).toMatchObject({ kind: 'hard', status: '5.2.1', reportedRecipient: 'bob@example.net', diagnostic: '550 5.2.1 disabled' });
  });

  it('reads an ARF abuse report as a complaint', async () => {
    expect(await parse(arf())).toEqual({ kind: 'complaint', feedbackType: 'abuse', reportedRecipient: 'ada@example.net', reportId: '<fbl-1@fbl.example.net>' });
    expect(await parse(arf({ feedbackType: 'fraud' }))).toMatchObject({ kind: 'complaint', feedbackType: 'fraud' });
  });

  it('does not count not-spam or authentication-failure feedback as complaints', async () => {
    expect(await parse(arf({ feedbackType: 'not-spam' }))).toBeNull();
    expect(await parse(arf({ feedbackType: 'auth-failure' }))).toBeNull();
  });

  it('gives null for auto-replies, plain mail, other multipart mail and garbage', async () => {
    expect(await parse(autoReply)).toBeNull();
    expect(await parse(crlf('Subject: hi\n\nhello'))).toBeNull();
    const mixed = dsn().replace('multipart/report; report-type=delivery-status;', 'multipart/mixed;');
    expect(await parse(mixed)).toBeNull();
    expect(await parse('\u0000\u0001 not a message')).toBeNull();
    expect(await parseReport(Buffer.alloc(0))).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Integration: the bounce receiver on loopback, the real app and database

let app: TestApp;
let server: BounceServer;
const captured = captureLog();
const messages = () => captured.lines.map((line) => String(line.msg));
let org: { organizationId: string; apiKey: string };

const RECIPIENTS = ['ada@example.net', 'bob@example.net'];

async function sendEmail(key = org.apiKey): Promise<string> {
  const response = await app.request('POST', '/api/emails', {
    key,
    body: { from: 'Acme <hello@acme.example.com>', to: RECIPIENTS, subject: 'Your receipt', text: 'Thanks' },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.id;
}

/** What the delivery pipeline leaves behind once both recipients' servers took the message. */
async function markDelivered(id: string): Promise<void> {
  await app.runtime.deps.db.update(emails).set({ status: 'delivered', nextAttemptAt: null }).where(eq(emails.id, id));
  await app.runtime.deps.db.update(emailRecipients).set({ status: 'delivered', attempts: 1, response: '250 2.0.0 Ok' }).where(eq(emailRecipients.emailId, id));
}

const verp = (id: string, index: number) => verpAddress(verpKeyFrom(app.runtime.deps.encryptionKey), id, index, 'send.acme.example.com');

/** Hands a report to the bounce receiver as a remote MTA would: null sender, one VERP recipient. */
async function deliver(to: string | string[], raw: string, options: { requireTLS?: boolean } = {}): Promise<SMTPTransport.SentMessageInfo> {
  const smtp: SMTPTransport.Options = {
    host: '127.0.0.1',
    port: server.port,
    secure: false,
    requireTLS: options.requireTLS ?? false,
    tls: { rejectUnauthorized: false },
    name: 'relay.example.org',
  };
  const transport = nodemailer.createTransport(smtp);
  try {
    return await transport.sendMail({ envelope: { from: '', to: Array.isArray(to) ? to : [to] }, raw });
  } finally {
    transport.close();
  }
}

const detail = async (id: string, key = org.apiKey) => (await app.request('GET', `/api/emails/${id}`, { key })).body;
const stored = async (id: string) => (await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id)))[0]!;
/** The email's recipients' rows, in envelope order. */
const recipientsOf = (id: string) => app.runtime.deps.db.select().from(emailRecipients).where(eq(emailRecipients.emailId, id)).orderBy(asc(emailRecipients.recipientIndex));
const suppressed = () => app.runtime.deps.db.select().from(suppressions);
// The organization's log also holds the send itself (email.queued): these tests look at what reports added.
const orgEvents = async () =>
  (await app.runtime.deps.db.select().from(events).where(eq(events.organizationId, org.organizationId)).orderBy(events.id)).filter((event) => event.type !== 'email.queued');
const bounceEventsOf = async (id: string) =>
  (await app.runtime.deps.db.select().from(emailEvents).where(eq(emailEvents.emailId, id)).orderBy(emailEvents.id)).filter((event) => event.type !== 'email.queued');

describe('bounce receiver', () => {
  beforeAll(async () => {
    app = await startTestApp();
    server = await startBounceServer({ port: 0, host: '127.0.0.1', deps: app.runtime.deps, log: captured.log, name: 'mail.eumail.test' });
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  beforeEach(async () => {
    await app.reset();
    captured.lines.length = 0;
    org = await app.createOrg({ ownerEmail: 'owner@acme.example.com' });
    const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: 'acme.example.com' } });
    await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.body.id));
    // Sending checks that the recipients' domain takes mail; the loopback DNS server answers.
    app.dns.mx('example.net', 'mx.example.net');
  });

  it('records a hard bounce: recipient bounced, event in the history, address suppressed, email status aggregated', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    // requireTLS: the receiver offers STARTTLS, and the sender insists on it here.
    const info = await deliver(verp(id, 0), dsn(), { requireTLS: true });
    expect(info.accepted).toEqual([verp(id, 0)]);

    const row = await stored(id);
    const recipients = await recipientsOf(id);
    expect(recipients.map((s) => s.status)).toEqual(['bounced', 'delivered']);
    expect(recipients[0]!.response).toMatch(/^550 5\.1\.1 .*User unknown/);
    // Bob got it: the email stays delivered, the bounce is in its history.
    expect(row.status).toBe('delivered');

    const email = await detail(id);
    expect(email.status).toBe('delivered');
    expect(email.events.at(-1)).toMatchObject({
      type: 'email.bounced',
      recipient: 'ada@example.net',
      data: {
        source: 'dsn',
        status: '5.1.1',
        diagnostic: expect.stringContaining('550 5.1.1'),
        reportedRecipient: 'ada@example.net',
        bounce: { class: 'mailbox_unknown', explanation: expect.stringMatching(/does not exist.*The address is now suppressed/) },
      },
    });
    expect(await suppressed()).toEqual([expect.objectContaining({ organizationId: org.organizationId, email: 'ada@example.net', reason: 'bounce', emailId: id })]);
    expect((await orgEvents()).filter((e) => e.type.startsWith('email.'))).toEqual([
      expect.objectContaining({
        type: 'email.bounced',
        data: expect.objectContaining({ emailId: id, recipient: 'ada@example.net', status: '5.1.1', bounce: expect.objectContaining({ class: 'mailbox_unknown' }) }),
      }),
    ]);

    // The second recipient bounces too: now nobody got it.
    await deliver(verp(id, 1), dsn({ recipient: 'bob@example.net', messageId: '<other@relay.example.org>' }));
    expect((await detail(id)).status).toBe('bounced');
    expect((await suppressed()).map((s) => s.email).sort()).toEqual(RECIPIENTS);
  });

  it('records a delay without suppressing or changing a delivered recipient, and marks a pending one deferred', async () => {
    const id = await sendEmail();
    await deliver(verp(id, 1), dsn({ recipient: 'bob@example.net', action: 'delayed', status: '4.4.1', diagnostic: 'smtp; 451 4.4.1 greylisted' }));
    let row = await stored(id);
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['pending', 'deferred']);
    expect(row.status).toBe('queued');

    await markDelivered(id);
    await deliver(verp(id, 0), dsn({ action: 'delayed', status: '4.4.7', diagnostic: 'smtp; 451 4.4.7 expired soon', messageId: '<delay-2@relay.example.org>' }));
    row = await stored(id);
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['delivered', 'delivered']);
    expect(row.status).toBe('delivered');
    const history = (await detail(id)).events.filter((e: { type: string }) => e.type === 'email.delivery_delayed');
    expect(history).toEqual([
      expect.objectContaining({
        recipient: 'bob@example.net',
        data: expect.objectContaining({ status: '4.4.1', diagnostic: '451 4.4.1 greylisted', source: 'dsn', bounce: { class: 'greylisted', explanation: expect.stringMatching(/retried automatically/) } }),
      }),
      expect.objectContaining({ recipient: 'ada@example.net', data: expect.objectContaining({ status: '4.4.7', bounce: expect.objectContaining({ class: 'other' }) }) }),
    ]);
    expect(await suppressed()).toEqual([]);
    expect((await orgEvents()).filter((e) => e.type === 'email.delivery_delayed')).toHaveLength(2);
  });

  it('records a complaint: recipient complained, email complained, address suppressed', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    await deliver(verp(id, 1), arf({ recipient: 'bob@example.net' }));
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['delivered', 'complained']);
    const email = await detail(id);
    expect(email.status).toBe('complained');
    expect(email.events.at(-1)).toMatchObject({
      type: 'email.complained',
      recipient: 'bob@example.net',
      data: { feedbackType: 'abuse', source: 'arf', bounce: { class: 'complaint', explanation: expect.stringMatching(/marked the message as spam.*now suppressed/) } },
    });
    expect(await suppressed()).toEqual([expect.objectContaining({ email: 'bob@example.net', reason: 'complaint', emailId: id })]);
    expect((await orgEvents()).filter((e) => e.type === 'email.complained')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ emailId: id, recipient: 'bob@example.net', feedbackType: 'abuse', mode: 'live', subject: 'Your receipt' }) }),
    ]);
  });

  it('lets the VERP address decide the recipient, whatever the report names', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    await deliver(verp(id, 1), dsn({ recipient: 'ada@example.net' }));
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['delivered', 'bounced']);
    expect((await suppressed()).map((s) => s.email)).toEqual(['bob@example.net']);
  });

  it('refuses forged, unknown and foreign addresses at RCPT TO and records nothing', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    const real = verp(id, 0);
    const forgedTag = real.replace(/\.([0-9a-f]{10})@/, (_, tag: string) => `.${tag[0] === '0' ? '1' : '0'}${tag.slice(1)}@`);
    const otherIndex = real.replace(`${id}.0.`, `${id}.1.`);
    const otherKey = verpAddress(verpKeyFrom(Buffer.alloc(32, 7)), id, 0, 'send.acme.example.com');
    for (const address of [forgedTag, otherIndex, otherKey, 'postmaster@send.acme.example.com', 'ada@example.net', `bounces+${id}.0@send.acme.example.com`]) {
      const error = await deliver(address, dsn()).then(
        () => null,
        (e: { responseCode?: number; rejected?: string[] }) => e,
      );
      expect(error, address).not.toBeNull();
      expect(error!.responseCode, address).toBe(550);
    }
    // One good and one forged recipient: only the good one is accepted.
    const mixed = await deliver([forgedTag, verp(id, 1)], dsn({ recipient: 'bob@example.net' }));
    expect(mixed.rejected).toEqual([forgedTag]);
    expect(mixed.accepted).toEqual([verp(id, 1)]);
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['delivered', 'bounced']);
    expect((await suppressed()).map((s) => s.email)).toEqual(['bob@example.net']);
  });

  it('records a test-mode email’s bounces and complaints but never suppresses', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const id = await sendEmail(testKey);
    await markDelivered(id);
    await deliver(verp(id, 0), dsn());
    await deliver(verp(id, 1), arf({ recipient: 'bob@example.net' }));
    const email = await detail(id, testKey);
    expect(email.status).toBe('complained');
    expect(email.events.map((e: { type: string }) => e.type)).toEqual(['email.queued', 'email.bounced', 'email.complained']);
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['bounced', 'complained']);
    expect(await suppressed()).toEqual([]);
  });

  it('is idempotent: the same DSN, delay or complaint twice records it once', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    await deliver(verp(id, 0), dsn());
    await deliver(verp(id, 0), dsn());
    const delay = dsn({ recipient: 'bob@example.net', action: 'delayed', status: '4.4.1', messageId: '<delay@relay.example.org>' });
    await deliver(verp(id, 1), delay);
    await deliver(verp(id, 1), delay);
    await deliver(verp(id, 1), arf({ recipient: 'bob@example.net' }));
    await deliver(verp(id, 1), arf({ recipient: 'bob@example.net' }));
    // A bounce after the complaint changes nothing: the complaint proved the mail arrived.
    await deliver(verp(id, 1), dsn({ recipient: 'bob@example.net', messageId: '<late@relay.example.org>' }));
    expect((await bounceEventsOf(id)).map((e) => `${e.type} ${e.recipient}`)).toEqual([
      'email.bounced ada@example.net',
      'email.delivery_delayed bob@example.net',
      'email.complained bob@example.net',
    ]);
    expect((await orgEvents()).filter((e) => e.type.startsWith('email.'))).toHaveLength(3);
    expect((await suppressed()).map((s) => `${s.email} ${s.reason}`).sort()).toEqual(['ada@example.net bounce', 'bob@example.net complaint']);
    expect((await stored(id)).status).toBe('complained');
  });

  it('takes a delay notice without Message-ID once per status and diagnostic', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    const noId = dsn({ action: 'delayed', status: '4.4.1' }).replace(/^Message-ID: .*\r\n/m, '');
    await deliver(verp(id, 0), noId);
    await deliver(verp(id, 0), noId);
    await deliver(verp(id, 0), noId.replace('Status: 4.4.1', 'Status: 4.4.2'));
    expect((await bounceEventsOf(id)).map((e) => (e.data as { status: string }).status)).toEqual(['4.4.1', '4.4.2']);
  });

  it('accepts and drops auto-replies and other mail, logging them', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    const info = await deliver(verp(id, 0), autoReply);
    expect(info.accepted).toEqual([verp(id, 0)]);
    await deliver(verp(id, 0), arf({ feedbackType: 'not-spam' }));
    expect(await bounceEventsOf(id)).toEqual([]);
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['delivered', 'delivered']);
    expect(messages().filter((line) => line.includes('not a DSN or ARF report'))).toHaveLength(2);
  });

  it('does not record reports for recipients never sent to, scheduled emails or deleted emails', async () => {
    const id = await sendEmail();
    await app.runtime.deps.db.update(emails).set({ status: 'sent' }).where(eq(emails.id, id));
    await app.runtime.deps.db.update(emailRecipients).set({ status: 'suppressed' }).where(and(eq(emailRecipients.emailId, id), eq(emailRecipients.recipientIndex, 0)));
    await app.runtime.deps.db.update(emailRecipients).set({ status: 'delivered', attempts: 1 }).where(and(eq(emailRecipients.emailId, id), eq(emailRecipients.recipientIndex, 1)));
    await deliver(verp(id, 0), dsn());
    expect(await bounceEventsOf(id)).toEqual([]);
    expect(messages().at(-1)).toMatch(/not recorded: not_sent/);

    const scheduled = await sendEmail();
    await app.runtime.deps.db.update(emails).set({ status: 'scheduled' }).where(eq(emails.id, scheduled));
    expect(await recordDeliveryReport(app.runtime.deps, { emailId: scheduled, recipientIndex: 0, kind: 'hard' })).toEqual({ recorded: false, reason: 'not_sent' });

    expect(await recordDeliveryReport(app.runtime.deps, { emailId: id, recipientIndex: 5, kind: 'hard' })).toEqual({ recorded: false, reason: 'unknown_recipient' });
    const gone = '01920000-0000-7000-8000-000000000001';
    expect(await recordDeliveryReport(app.runtime.deps, { emailId: gone, recipientIndex: 0, kind: 'hard' })).toEqual({ recorded: false, reason: 'unknown_email' });
    // A valid VERP address of an email that no longer exists is still accepted (250) and logged.
    await deliver(verp(gone, 0), dsn());
    expect(messages().at(-1)).toMatch(/not recorded: unknown_email/);
    expect(await suppressed()).toEqual([]);
  });

  it('keeps the pipeline’s status while recipients are in flight, then gives the final one', async () => {
    const id = await sendEmail();
    const first = await recordDeliveryReport(app.runtime.deps, { emailId: id, recipientIndex: 0, kind: 'hard', status: '5.1.1' });
    expect(first).toEqual({ recorded: true, recipient: 'ada@example.net', recipientStatus: 'bounced', emailStatus: 'queued', suppressed: true });
    const second = await recordDeliveryReport(app.runtime.deps, { emailId: id, recipientIndex: 1, kind: 'hard', status: '5.1.1' });
    expect(second).toMatchObject({ recorded: true, emailStatus: 'bounced' });
    expect((await stored(id)).status).toBe('bounced');
  });

  it('records concurrent reports for one email without losing either recipient', async () => {
    const id = await sendEmail();
    await markDelivered(id);
    await Promise.all([deliver(verp(id, 0), dsn()), deliver(verp(id, 1), arf({ recipient: 'bob@example.net' }))]);
    expect((await recipientsOf(id)).map((s) => s.status)).toEqual(['bounced', 'complained']);
    expect((await suppressed()).map((s) => s.email).sort()).toEqual(RECIPIENTS);
  });

  it('refuses a message over the size limit', async () => {
    const id = await sendEmail();
    const huge = dsn().replace('This is the mail system', `${'x'.repeat(998)}\r\n`.repeat(1100) + 'This is the mail system');
    const error = await deliver(verp(id, 0), huge).then(
      () => null,
      (e: { responseCode?: number }) => e,
    );
    expect(error?.responseCode).toBe(552);
    expect(await bounceEventsOf(id)).toEqual([]);
  });
});
