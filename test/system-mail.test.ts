import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemEmails } from '@/db/schema';
import { apiKeyRevokedEmail } from '@/emails/api-key-revoked';
import { runAdminCommand } from '@/server/admin/commands';
import { generateDkimKeyPair } from '@/server/crypto/dkim-keys';
import { closeRelayPools } from '@/server/mail/delivery';
import { clearMxDns } from '@/server/mail/mx-dns';
import { parseVerpAddress, verpKeyFrom } from '@/server/mail/verp';
import { deliverSystemEmail, enqueueSystemEmail, sweepSystemEmails } from '@/server/services/system-mail/queue';
import type { SystemMailRecords } from '@/server/services/system-mail/records';
import { startTestApp, type TestApp } from './support/app';
import { guardConnections, type ConnectGuard } from './support/connect-guard';
import { publishRecords } from './support/domains';
import { startFaultyMx, type FaultyMx } from './support/faulty-mx';
import { authenticateReceived } from './support/mail-auth';
import { startMxServer, type MxServer } from './support/smtp-mx';
import { startSmtpSink } from './support/smtp';

// Issue 29 point 7: the service's own mail goes through deliver(), as customers' mail does. The
// recipients' MX hosts exist only on the loopback DNS server (DNS_SERVERS), so a message that
// arrives was looked up and connected to through it; nothing here leaves 127.0.0.0/8.
const SERVICE = 'eumail.example';
const MAIL_HOST = 'mx.eumail.example';

let guard: ConnectGuard;
let mx: MxServer;
/** Greylists (451 at RCPT) on 127.0.0.2, on the MX port: the same SMTP_MX_PORT reaches both. */
let faulty: FaultyMx;
let app: TestApp;

beforeAll(async () => {
  guard = guardConnections();
  mx = await startMxServer({ rcpt: (address) => (address.startsWith('gone@') ? { code: 550, message: '5.1.1 No such user' } : null) });
  faulty = await startFaultyMx({ host: '127.0.0.2', port: mx.port });
  app = await startTestApp({
    env: {
      SYSTEM_MAIL_FROM: `EU Mail <no-reply@${SERVICE}>`,
      SMTP_MX_PORT: String(mx.port),
      SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      MAIL_HOST,
    },
  });
});
afterAll(async () => {
  closeRelayPools();
  await app?.close();
  await faulty?.close();
  await mx?.close();
  guard?.restore();
  // Whatever the code under test did, every connection it tried was to loopback.
  expect(guard.attempts.every((attempt) => attempt.host.startsWith('127.'))).toBe(true);
});
beforeEach(async () => {
  await app.reset();
  closeRelayPools();
  clearMxDns();
  mx.messages.length = 0;
  faulty.reset();
  faulty.setDefault('rcpt-451');
  app.clock.set('2026-11-21T12:00:00.000Z');
});

const deps = () => app.runtime.deps;

/** An MX for the domain known only to the loopback DNS server: a host name, then its address. */
function mxOn(domain: string, address: string): void {
  app.dns.mx(domain, `mx.${domain}`);
  app.dns.a(`mx.${domain}`, address);
}

const queue = (to: string, on: TestApp = app) =>
  enqueueSystemEmail(on.runtime.deps.db, on.runtime.deps, {
    organizationId: null,
    kind: 'api_key_revoked',
    to,
    email: apiKeyRevokedEmail({ organizationName: 'Acme', keyName: 'ci', tokenStart: 'eu_live_abcd', revokedAt: on.clock.now() }),
  });

const rowOf = async (id: string, on: TestApp = app) => (await on.runtime.deps.db.select().from(systemEmails).where(eq(systemEmails.id, id)))[0]!;

describe('the service’s own mail through deliver()', () => {
  it('reaches an MX known only through DNS_SERVERS, signed by the service’s domain with the key system-mail:records prints', async () => {
    mxOn('customer.test', '127.0.0.1');
    const printed = (await runAdminCommand(deps(), 'system-mail:records', {})) as SystemMailRecords;
    expect(printed.domain).toBe(SERVICE);
    expect(printed.records.map((record) => [record.record, record.type, record.name])).toEqual([
      ['DKIM', 'TXT', `eumail._domainkey.${SERVICE}`],
      ['MX', 'MX', `send.${SERVICE}`],
      ['SPF', 'TXT', `send.${SERVICE}`],
      ['DMARC', 'TXT', `_dmarc.${SERVICE}`],
    ]);
    expect(printed.advice.join('\n')).toMatch(/SPF[\s\S]*DMARC/);
    // The operator publishes what the command printed; our mail host's SPF lists the address it sends from.
    publishRecords(app.dns, printed.records);
    app.dns.txt(MAIL_HOST, 'v=spf1 ip4:127.0.0.1 -all');

    const id = await queue('owner@customer.test');
    expect(await deliverSystemEmail(deps(), id)).toBe('sent');
    expect(app.dns.queries).toEqual(expect.arrayContaining(['MX customer.test', 'A mx.customer.test']));
    expect(mx.messages).toHaveLength(1);
    const received = mx.messages[0]!;
    expect(received.to).toEqual(['owner@customer.test']);
    // A VERP return path under the service's domain: a bounce comes back to the bounce receiver.
    expect(parseVerpAddress(verpKeyFrom(deps().encryptionKey), received.from)).toEqual({ emailId: id, recipientIndex: 0, domain: `send.${SERVICE}` });

    const mail = await simpleParser(received.raw);
    expect(mail.messageId).toBe(`<${id}@${SERVICE}>`);
    expect(mail.date?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(mail.from?.value).toEqual([{ name: 'EU Mail', address: `no-reply@${SERVICE}` }]);
    expect(mail.text).toContain('Requests made with it are refused from now on');
    expect(mail.html).toContain('eu_live_abcd');
    expect(received.raw).toMatch(/^Content-Type: multipart\/alternative;/im);

    const verdict = await authenticateReceived(received.raw, { dns: app.dns, sender: received.from });
    expect(verdict.dkim.results).toHaveLength(1);
    expect(verdict.dkim.results[0]).toMatchObject({ signingDomain: SERVICE, selector: 'eumail', status: { result: 'pass' } });
    expect(verdict.dmarc).toMatchObject({ status: { result: 'pass' } });

    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row.lastResponse).toMatch(/^mx\.customer\.test \[127\.0\.0\.1\]: 250/);
  });

  it('refuses an MX on a private address it is not allowed, before any connection, and fails the message', async () => {
    mxOn('intranet.test', '10.1.2.3');
    const id = await queue('owner@intranet.test');
    const before = guard.attempts.length;
    expect(await deliverSystemEmail(deps(), id)).toBe('failed');
    expect(guard.attempts.length).toBe(before);
    const row = await rowOf(id);
    expect(row.status).toBe('failed');
    expect(row.lastResponse).toMatch(/mx\.intranet\.test resolves to 10\.1\.2\.3, a private network address \(10\.0\.0\.0\/8\); not delivering there/);
  });

  it('tries a deferred message again after its back-off, and fails one the MX refuses for good', async () => {
    mxOn('greylist.test', '127.0.0.2');
    const deferred = await queue('owner@greylist.test');
    expect(await deliverSystemEmail(deps(), deferred)).toBe('retry');
    const waiting = await rowOf(deferred);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting.lastResponse).toMatch(/451 4\.7\.1 Greylisted/);
    expect(waiting.lastError).toBe(waiting.lastResponse);
    expect(waiting.nextAttemptAt.getTime()).toBe(app.clock.now().getTime() + 30_000);
    expect(await sweepSystemEmails(deps())).toBe(0); // not due yet
    app.clock.advance(30_000);
    expect(await sweepSystemEmails(deps())).toBe(1);
    expect(faulty.messages.map((message) => message.messageId)).toEqual([`<${deferred}@${SERVICE}>`]);
    // The retry is the same message: its Date is when it was queued, not when it was tried again.
    expect((await simpleParser(faulty.messages[0]!.raw)).date?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(await rowOf(deferred)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });

    mxOn('customer.test', '127.0.0.1');
    const refused = await queue('gone@customer.test');
    expect(await deliverSystemEmail(deps(), refused)).toBe('failed');
    const row = await rowOf(refused);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastResponse).toMatch(/550 5\.1\.1 No such user/);
    expect(mx.messages).toHaveLength(0);
  });
});

describe('with SMTP_RELAY_URL', () => {
  it('goes through the relay, signed with the key SYSTEM_MAIL_DKIM_PRIVATE_KEY names', async () => {
    const relay = await startSmtpSink();
    const key = await generateDkimKeyPair();
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-system-dkim-')), 'system.pem');
    fs.writeFileSync(keyFile, key.privateKeyPem);
    const relayed = await startTestApp({
      shareDatabaseWith: app,
      env: {
        SYSTEM_MAIL_FROM: `no-reply@${SERVICE}`,
        SYSTEM_MAIL_DKIM_PRIVATE_KEY: keyFile,
        SYSTEM_MAIL_DKIM_SELECTOR: 'ops2026',
        SMTP_RELAY_URL: relay.url,
        SMTP_MX_PORT: String(mx.port),
        SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
        MAIL_HOST,
      },
    });
    try {
      const printed = (await runAdminCommand(relayed.runtime.deps, 'system-mail:records', {})) as SystemMailRecords;
      expect(printed.records[0]).toMatchObject({ name: `ops2026._domainkey.${SERVICE}`, value: `v=DKIM1; k=rsa; p=${key.publicKey}` });
      publishRecords(relayed.dns, printed.records, ['DKIM']);
      // The recipient's domain has an MX on loopback: the relay, not the MX, must get the message.
      relayed.dns.mx('customer.test', 'mx.customer.test');
      relayed.dns.a('mx.customer.test', '127.0.0.1');

      const id = await queue('owner@customer.test', relayed);
      expect(await deliverSystemEmail(relayed.runtime.deps, id)).toBe('sent');
      expect(relay.messages).toHaveLength(1);
      expect(mx.messages).toHaveLength(0);
      expect(relayed.dns.queries).toEqual([]);
      const verdict = await authenticateReceived(relay.messages[0]!.raw, { dns: relayed.dns, sender: relay.messages[0]!.from });
      expect(verdict.dkim.results[0]).toMatchObject({ signingDomain: SERVICE, selector: 'ops2026', status: { result: 'pass' } });
      expect((await rowOf(id, relayed)).lastResponse).toMatch(/250/);
    } finally {
      // The relay's pooled connection would hold its close for the server's timeout.
      closeRelayPools();
      await relayed.close();
      await relay.close();
      fs.rmSync(path.dirname(keyFile), { recursive: true, force: true });
    }
  });
});
