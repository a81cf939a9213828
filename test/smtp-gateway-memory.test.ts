import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { startTestApp, type TestApp } from './support/app';
import { publishRecords } from './support/domains';
import { startTestGateway } from './support/gateway';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { openSmtp, type RawSmtp } from './support/smtp-client';

// Issue 28, point 10: the bytes the gateway holds are bounded in all and per organization; past
// either, a 452 4.3.1 a client retries, and the bytes come back when messages end.

const TOTAL = 300_000;
const PER_ORG = 200_000;
let app: TestApp;
let gateway: SmtpGateway;
beforeAll(async () => {
  // The budgets come from the environment, as an operator sets them.
  app = await startTestApp({ env: { SMTP_GATEWAY_MEMORY_BYTES: String(TOTAL), SMTP_GATEWAY_ORG_MEMORY_BYTES: String(PER_ORG) } });
  gateway = await startTestGateway(app, { maxBytes: 1024 * 1024 });
});
afterAll(async () => {
  await gateway.close();
  await app.close();
});

let keyA: string;
let keyB: string;
beforeEach(async () => {
  await app.reset();
  const a = await sendingOrg(app, { plan: '10k' });
  keyA = await keyFor(app, a.organizationId, 'sending_access', 'test');
  const b = await app.createOrg({ plan: '10k' });
  const domain = await app.request('POST', '/api/domains', { key: b.apiKey, body: { name: 'beta.example.com' } });
  expect(domain.status).toBe(201);
  publishRecords(app.dns, domain.body.records);
  await sweepDomainChecks(app.runtime.deps);
  keyB = await keyFor(app, b.organizationId, 'sending_access', 'test');
});

const plain = (secret: string) => Buffer.from(`\0apikey\0${secret}`).toString('base64');

/** Logged in and in DATA, ready for the message's bytes. */
async function inData(key: string, from: string): Promise<RawSmtp> {
  const smtp = await openSmtp(gateway.ports.starttls!);
  expect(await smtp.reply()).toMatch(/^220 /);
  expect(await smtp.command('EHLO client.example')).toMatch(/^250/);
  expect(await smtp.startTls()).toMatch(/^220 /);
  expect(await smtp.command('EHLO client.example')).toMatch(/^250/);
  expect(await smtp.command(`AUTH PLAIN ${plain(key)}`)).toMatch(/^235 /);
  expect(await smtp.command(`MAIL FROM:<${from}>`)).toMatch(/^250/);
  expect(await smtp.command('RCPT TO:<ada@example.net>')).toMatch(/^250/);
  expect(await smtp.command('DATA')).toMatch(/^354/);
  return smtp;
}

const head = (from: string) => `From: <${from}>\r\nTo: ada@example.net\r\nSubject: Memory\r\n\r\n`;
const body = (bytes: number) => `${'x'.repeat(74)}\r\n`.repeat(Math.ceil(bytes / 76));
const END = '.\r\n';
const A = 'billing@acme.example.com';
const B = 'billing@beta.example.com';

async function heldAtLeast(bytes: number): Promise<void> {
  const until = Date.now() + 5_000;
  while (gateway.heldBytes() < bytes) {
    if (Date.now() > until) throw new Error(`the gateway holds ${gateway.heldBytes()} bytes, not ${bytes}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function send(key: string, from: string, bytes: number): Promise<string> {
  const smtp = await inData(key, from);
  try {
    smtp.write(head(from) + body(bytes) + END);
    return await smtp.reply();
  } finally {
    smtp.close();
  }
}

describe('SMTP gateway memory', () => {
  it('answers 452 4.3.1 past the per-organization and total budgets, lets another organization through, and serves again once bytes are given back', async () => {
    // A1 holds 150 kB of organization A, its message not ended yet.
    const a1 = await inData(keyA, A);
    a1.write(head(A) + body(150_000));
    await heldAtLeast(150_000);

    // Another 100 kB of A would pass A's 200 kB.
    expect(await send(keyA, A, 100_000)).toMatch(/^452 4\.3\.1 /);
    // Organization B is not A: its 100 kB goes through (250 kB held at most of 300 kB).
    expect(await send(keyB, B, 100_000)).toMatch(/^250 2\.0\.0 Ok: queued as /);

    // B2 holds 120 kB; B's next 50 kB fits B's own budget but not the total (150 + 120 + 50 > 300).
    const b2 = await inData(keyB, B);
    b2.write(head(B) + body(120_000));
    await heldAtLeast(270_000);
    expect(await send(keyB, B, 50_000)).toMatch(/^452 4\.3\.1 /);

    // The held messages still go through, and give their bytes back.
    a1.write(END);
    expect(await a1.reply()).toMatch(/^250 2\.0\.0 Ok: queued as /);
    b2.write(END);
    expect(await b2.reply()).toMatch(/^250 2\.0\.0 Ok: queued as /);
    a1.close();
    b2.close();
    expect(gateway.heldBytes()).toBe(0);

    // A retry of what was refused now goes through.
    expect(await send(keyA, A, 100_000)).toMatch(/^250 2\.0\.0 Ok: queued as /);
    expect(gateway.heldBytes()).toBe(0);
  });

  it('gives back the bytes of a client that leaves in the middle of DATA', async () => {
    const smtp = await inData(keyA, A);
    smtp.write(head(A) + body(180_000));
    await heldAtLeast(180_000);
    smtp.close();
    await smtp.closed;
    const until = Date.now() + 5_000;
    while (gateway.heldBytes() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gateway.heldBytes()).toBe(0);
    expect(await send(keyA, A, 150_000)).toMatch(/^250 2\.0\.0 Ok: queued as /);
  });
});
