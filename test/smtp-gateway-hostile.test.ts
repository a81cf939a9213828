import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { AUTH_THROTTLE } from '@/server/services/smtp-gateway/auth-throttle';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { startTestGateway } from './support/gateway';
import { sendingOrg } from './support/sending-org';
import { openSmtp, type RawSmtp } from './support/smtp-client';

// Clients the gateway must survive: each row is a conversation byte for byte, and after every one
// a well-behaved client still gets through. Short bounds (1 s idle, 3 s per connection, 64 kB,
// 3 connections per address) so the timeouts show within a test.
let app: TestApp;
let gateway: SmtpGateway;
const LIMITS = { idleMs: 1_000, sessionMs: 3_000, maxBytes: 64 * 1024, perClient: 3 };
beforeAll(async () => {
  app = await startTestApp();
  gateway = await startTestGateway(app, LIMITS);
});
afterAll(async () => {
  await gateway.close();
  await app.close();
});

let key: string;
beforeEach(async () => {
  await app.reset();
  const org = await sendingOrg(app, { plan: '10k' });
  key = await keyFor(app, org.organizationId, 'sending_access', 'test');
});

const port = () => gateway.ports.starttls!;
const plain = (secret: string) => Buffer.from(`\0apikey\0${secret}`).toString('base64');

/** Connected, greeted, EHLO'd, TLS up and logged in: ready for MAIL FROM. */
async function loggedIn(options: { localAddress?: string } = {}): Promise<RawSmtp> {
  const smtp = await openSmtp(port(), options);
  expect(await smtp.reply()).toMatch(/^220 /);
  expect(await smtp.command('EHLO client.example')).toMatch(/^250/);
  expect(await smtp.startTls()).toMatch(/^220 /);
  expect(await smtp.command('EHLO client.example')).toMatch(/^250/);
  expect(await smtp.command(`AUTH PLAIN ${plain(key)}`)).toMatch(/^235 /);
  return smtp;
}

const MESSAGE = (body: string, headers = '') =>
  `From: Acme <billing@acme.example.com>\r\nTo: ada@example.net\r\nSubject: Hostile\r\n${headers}\r\n${body}\r\n.\r\n`;

/** A normal message from a well-behaved client: the gateway still serves after what came before. */
async function stillServes(): Promise<void> {
  const smtp = await loggedIn();
  try {
    expect(await smtp.command('MAIL FROM:<billing@acme.example.com>')).toMatch(/^250/);
    expect(await smtp.command('RCPT TO:<ada@example.net>')).toMatch(/^250/);
    expect(await smtp.command('DATA')).toMatch(/^354/);
    smtp.write(MESSAGE('All is well.'));
    expect(await smtp.reply()).toMatch(/^250 2\.0\.0 Ok: queued as /);
  } finally {
    smtp.close();
  }
}

describe('hostile and broken clients', () => {
  it('refuses AUTH before STARTTLS, and MAIL before AUTH', async () => {
    const smtp = await openSmtp(port());
    await smtp.reply();
    await smtp.command('EHLO client.example');
    expect(await smtp.command(`AUTH PLAIN ${plain(key)}`)).toMatch(/^538 .*STARTTLS/);
    expect(await smtp.command('MAIL FROM:<billing@acme.example.com>')).toMatch(/^530 /);
    smtp.close();
    await stillServes();
  });

  it('cuts off pipelined garbage after a few unknown commands', async () => {
    const smtp = await openSmtp(port());
    await smtp.reply();
    smtp.write(Array.from({ length: 50 }, (_, i) => `GARBAGE ${i} \x01\x02\xff`).join('\r\n') + '\r\n');
    await smtp.closed;
    await stillServes();
  });

  it('answers NUL bytes and bare LF in commands without crashing', async () => {
    const smtp = await openSmtp(port());
    await smtp.reply();
    smtp.write('EHLO a\0b\r\n');
    expect(await smtp.reply()).toMatch(/^[2-5]\d\d/);
    smtp.write('NOOP\n');
    smtp.write('QUIT\r\n');
    await smtp.closed;
    await stillServes();
  });

  it('does not end DATA at a bare-LF dot (no smuggling of a second message), and refuses NUL in the body', async () => {
    const smtp = await loggedIn();
    await smtp.command('MAIL FROM:<billing@acme.example.com>');
    await smtp.command('RCPT TO:<ada@example.net>');
    await smtp.command('DATA');
    smtp.write('From: billing@acme.example.com\r\nTo: ada@example.net\r\nSubject: One\r\n\r\nfirst\n.\nMAIL FROM:<billing@acme.example.com>\nRCPT TO:<eve@example.net>\r\n.\r\n');
    expect(await smtp.reply()).toMatch(/^250 2\.0\.0 Ok: queued as /);
    const rows = await app.runtime.deps.db.select({ to: emails.to }).from(emails);
    expect(rows).toEqual([{ to: ['ada@example.net'] }]);

    await smtp.command('MAIL FROM:<billing@acme.example.com>');
    await smtp.command('RCPT TO:<ada@example.net>');
    await smtp.command('DATA');
    smtp.write(MESSAGE('nul \0 inside'));
    expect(await smtp.reply()).toMatch(/^550 5\.6\.0 VALIDATION_ERROR: The message body contains NUL/);
    smtp.close();
    await stillServes();
  });

  it('takes 8BITMIME and SMTPUTF8: a raw UTF-8 body and a UTF-8 recipient', async () => {
    const smtp = await loggedIn();
    expect(await smtp.command('MAIL FROM:<billing@acme.example.com> BODY=8BITMIME SMTPUTF8')).toMatch(/^250/);
    expect(await smtp.command('RCPT TO:<jürgen@example.net>')).toMatch(/^250/);
    expect(await smtp.command('DATA')).toMatch(/^354/);
    smtp.write(Buffer.from('From: billing@acme.example.com\r\nTo: jürgen@example.net\r\nSubject: Grüße aus Köln\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nSchöne Grüße\r\n.\r\n', 'utf8'));
    const reply = await smtp.reply();
    expect(reply).toMatch(/^250 2\.0\.0 Ok: queued as /);
    const id = /queued as (\S+)/.exec(reply)![1]!;
    const [row] = await app.runtime.deps.db.select({ subject: emails.subject, text: emails.text, to: emails.to }).from(emails).where(eq(emails.id, id));
    expect(row).toEqual({ subject: 'Grüße aus Köln', text: 'Schöne Grüße\n', to: ['jürgen@example.net'] });
    smtp.close();
  });

  it('refuses a declared SIZE over the limit at MAIL FROM, and an actual one after DATA with 552 5.3.4', async () => {
    const smtp = await loggedIn();
    expect(await smtp.command(`MAIL FROM:<billing@acme.example.com> SIZE=${LIMITS.maxBytes + 1}`)).toMatch(/^552 /);
    await smtp.command('MAIL FROM:<billing@acme.example.com>');
    await smtp.command('RCPT TO:<ada@example.net>');
    await smtp.command('DATA');
    smtp.write(MESSAGE('x'.repeat(76) + '\r\n'.repeat(1) + ('y'.repeat(998) + '\r\n').repeat(70)));
    expect(await smtp.reply()).toMatch(/^552 5\.3\.4 PAYLOAD_TOO_LARGE: Message too big/);
    smtp.close();
    expect(await app.runtime.deps.db.$count(emails)).toBe(0);
    await stillServes();
  });

  it('closes an idle connection, and one that trickles a byte at a time past the session bound', async () => {
    const idle = await openSmtp(port());
    await idle.reply();
    const idleAnswer = await idle.reply(5_000);
    expect(idleAnswer).toMatch(/^421 .*Timeout/);
    await idle.closed;

    const trickle = await openSmtp(port());
    await trickle.reply();
    const started = performance.now();
    const timer = setInterval(() => trickle.write('N'), 300);
    await trickle.closed;
    clearInterval(timer);
    const lasted = performance.now() - started;
    expect(lasted).toBeGreaterThan(LIMITS.sessionMs - 500);
    expect(lasted).toBeLessThan(LIMITS.sessionMs + 2_000);
    await stillServes();
  });

  it('turns away a fourth connection from one address with 421, but not another address', async () => {
    const held = await Promise.all([1, 2, 3].map(() => openSmtp(port())));
    for (const smtp of held) expect(await smtp.reply()).toMatch(/^220 /);
    const fourth = await openSmtp(port());
    expect(await fourth.reply()).toMatch(/^421 4\.7\.0 Too many connections/);
    const other = await openSmtp(port(), { localAddress: '127.0.0.2' });
    expect(await other.reply()).toMatch(/^220 /);
    for (const smtp of [...held, other]) smtp.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await stillServes();
  });

  it('throttles failed logins per address: the 10th failure turns it away with 421, other addresses log in', async () => {
    const from = '127.0.0.3';
    for (let attempt = 1; attempt <= AUTH_THROTTLE.failuresAllowed; attempt += 1) {
      const smtp = await openSmtp(port(), { localAddress: from });
      await smtp.reply();
      await smtp.command('EHLO client.example');
      await smtp.startTls();
      await smtp.command('EHLO client.example');
      const answer = await smtp.command(`AUTH PLAIN ${plain('eu_test_' + 'w'.repeat(43))}`);
      expect(answer).toMatch(attempt < AUTH_THROTTLE.failuresAllowed ? /^535 5\.7\.8 / : /^421 4\.7\.0 Too many failed logins/);
      smtp.close();
    }
    const after = await openSmtp(port(), { localAddress: from });
    expect(await after.reply()).toMatch(/^421 4\.7\.0 Too many failed logins from 127\.0\.0\.3/);
    after.close();
    // The block lifts after its time (the injectable clock).
    app.clock.advance(AUTH_THROTTLE.blockMs + 1_000);
    const later = await openSmtp(port(), { localAddress: from });
    expect(await later.reply()).toMatch(/^220 /);
    later.close();
    await stillServes();
  });
});

