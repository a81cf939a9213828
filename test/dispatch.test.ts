import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dkimKeys, emailEvents, emailRecipients, emails, events, suppressions } from '@/db/schema';
import { generateDkimKeyPair } from '@/server/crypto/dkim-keys';
import { seal } from '@/server/crypto/secret-box';
import { newId } from '@/server/ids';
import { closeRelayPools } from '@/server/mail/delivery';
import { dispatchEmail, sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { claimDueEmails } from '@/server/services/emails/pipeline/claim';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { startTestApp, type TestApp } from './support/app';
import { publishRecords } from './support/domains';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer, type Refusal } from './support/smtp-mx';

// The sweep's batch claim, its concurrency and the one-statement outcome writes, against a real
// MX on loopback (pooled sessions) and a real database (PGlite, or Postgres with DATABASE_URL).
let app: TestApp;
let mx: MxServer;
let refuse: (address: string) => Refusal | Promise<Refusal> = () => null;
beforeAll(async () => {
  mx = await startMxServer({ rcpt: (address) => refuse(address) });
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' } });
});
afterAll(async () => {
  closeRelayPools();
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string };
let domainId: string;
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  refuse = () => null;
  ({ domainId, ...org } = await sendingOrg(app));
  app.dns.a('mx.example.net', '127.0.0.1');
});

const send = async (to: string | string[] = 'ada@example.net') => {
  const response = await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'Acme <hello@acme.example.com>', to, subject: 'Receipt', text: 'Thanks' } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
};
const statusOf = async (id: string) => (await app.runtime.deps.db.select({ status: emails.status }).from(emails).where(eq(emails.id, id)))[0]?.status;
const selectorOf = (raw: string) => /\bs=([^;\s]+)/.exec(raw.slice(raw.indexOf('DKIM-Signature:')))?.[1];

describe('sweeping many due emails', () => {
  it('delivers each exactly once, even with three sweeps side by side, with the same history as one at a time', async () => {
    const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => send(`reader${i}@example.net`)));
    const handled = await Promise.all([sweepEmailDispatch(app.runtime.deps), sweepEmailDispatch(app.runtime.deps), sweepEmailDispatch(app.runtime.deps)]);
    expect(handled.reduce((sum, report) => sum + report.handled, 0)).toBe(60);
    expect(mx.messages.map((m) => m.to[0]).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `reader${i}@example.net`).sort());
    // The MX sessions were pooled, not one per email.
    expect(mx.connections()).toBeLessThanOrEqual(5);
    const { db } = app.runtime.deps;
    const byStatus = await db.select({ status: emails.status, n: sql<number>`count(*)::int` }).from(emails).groupBy(emails.status);
    expect(byStatus).toEqual([{ status: 'delivered', n: 60 }]);
    for (const id of ids.slice(0, 3)) {
      // The acceptance entry is told from the email on read (emails/history.ts), not stored.
      const history = await db.select().from(emailEvents).where(eq(emailEvents.emailId, id)).orderBy(emailEvents.id);
      expect(history.map((e) => [e.type, e.recipient])).toEqual([
        ['email.sent', null],
        ['email.delivered', expect.stringMatching(/^reader\d+@example\.net$/)],
      ]);
      expect(history[1]!.data).toMatchObject({ smtpCode: 250, host: 'mx.example.net' });
      const logged = await db.select().from(events).where(sql`${events.data} ->> 'emailId' = ${id}`).orderBy(events.id);
      expect(logged.map((e) => e.type)).toEqual(['email.queued', 'email.sent', 'email.delivered']);
      expect(logged[2]!.data).toMatchObject({ emailId: id, mode: 'live', subject: 'Receipt', recipient: history[1]!.recipient, smtpCode: 250 });
    }
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(0);
  });

  it('suppresses a bounced address once when several emails bounce it in one sweep', async () => {
    refuse = (address) => (address === 'gone@example.net' ? { code: 550, message: '5.1.1 no such user' } : null);
    const ids = await Promise.all(Array.from({ length: 4 }, () => send(['gone@example.net', 'ada@example.net'])));
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(4);
    const entries = await app.runtime.deps.db.select().from(suppressions);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ email: 'gone@example.net', reason: 'bounce' });
    expect(ids).toContain(entries[0]!.emailId);
    for (const id of ids) expect(await statusOf(id)).toBe('delivered');
  });

  it('keeps a bounce report that came in while the email was being sent', async () => {
    const id = await send(['ada@example.net', 'bob@example.net']);
    refuse = (address) => {
      // The report lands between the claim and the outcome write: the write must merge, not overwrite.
      if (address === 'bob@example.net') {
        return app.runtime.deps.db
          .update(emailRecipients)
          .set({ status: 'bounced' })
          .where(and(eq(emailRecipients.emailId, id), eq(emailRecipients.recipientIndex, 0)))
          .then(() => null);
      }
      return null;
    };
    await sweepEmailDispatch(app.runtime.deps);
    const [row] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id));
    const recipients = await app.runtime.deps.db.select().from(emailRecipients).where(eq(emailRecipients.emailId, id)).orderBy(asc(emailRecipients.recipientIndex));
    expect(recipients.map((s) => s.status)).toEqual(['bounced', 'delivered']);
    expect(row!.status).toBe('delivered');
  });
});

describe('a report while the outcome is written', () => {
  it('waits for a report that holds the email and counts what it recorded', async () => {
    const id = await send(['ada@example.net', 'bob@example.net']);
    const { db } = app.runtime.deps;
    let reported: Promise<unknown> = Promise.resolve();
    refuse = (address) => {
      if (address !== 'bob@example.net') return null;
      // As a bounce report does: the email's row, then the recipient's, held until after the
      // outcome write has started (and taken its snapshot), then committed.
      return new Promise<Refusal>((answered) => {
        reported = db.transaction(async (tx) => {
          await tx.select({ id: emails.id }).from(emails).where(eq(emails.id, id)).for('no key update');
          await tx.update(emailRecipients).set({ status: 'bounced', response: '550 5.1.1 reported' }).where(and(eq(emailRecipients.emailId, id), eq(emailRecipients.recipientIndex, 0)));
          answered(null);
          await new Promise((resolve) => setTimeout(resolve, 500));
        });
      });
    };
    await sweepEmailDispatch(app.runtime.deps);
    await reported;
    const recipients = await db.select().from(emailRecipients).where(eq(emailRecipients.emailId, id)).orderBy(asc(emailRecipients.recipientIndex));
    expect(recipients.map((r) => [r.status, r.response])).toEqual([
      ['bounced', '550 5.1.1 reported'],
      ['delivered', expect.stringMatching(/: 250 /)],
    ]);
    expect(await statusOf(id)).toBe('delivered');
  });
});

describe('the signing key', () => {
  it('signs with the new key once it is rotated, and a deleted domain sends nothing', async () => {
    const first = await send();
    await dispatchEmail(app.runtime.deps, first);
    const oldSelector = selectorOf(mx.messages[0]!.raw);

    const pair = await generateDkimKeyPair();
    const { db, encryptionKey, clock } = app.runtime.deps;
    await db.update(dkimKeys).set({ retiredAt: clock.now() }).where(eq(dkimKeys.domainId, domainId));
    await db.insert(dkimKeys).values({ id: newId(), domainId, organizationId: org.organizationId, selector: pair.selector, publicKey: pair.publicKey, privateKeyEncrypted: seal(pair.privateKeyPem, encryptionKey), createdAt: clock.now() });
    const second = await send();
    await dispatchEmail(app.runtime.deps, second);
    expect(selectorOf(mx.messages[1]!.raw)).toBe(pair.selector);
    expect(pair.selector).not.toBe(oldSelector);

    const third = await send();
    expect((await app.request('DELETE', `/api/domains/${domainId}`, { key: org.apiKey })).status).toBeLessThan(300);
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    expect(mx.messages).toHaveLength(2);
    expect(await statusOf(third)).toBe('failed');
  });
});

describe('many sending domains', () => {
  it('signs each email with its own domain key', async () => {
    const senders = [];
    for (let i = 0; i < 6; i += 1) {
      const other = await app.createOrg({ name: `Org ${i}`, ownerEmail: `owner${i}@acme.test` });
      const domain = await app.request('POST', '/api/domains', { key: other.apiKey, body: { name: `sender${i}.example.com` } });
      publishRecords(app.dns, domain.body.records);
      senders.push({ key: other.apiKey, name: `sender${i}.example.com` });
    }
    await sweepDomainChecks(app.runtime.deps);
    for (const [i, sender] of [...senders, ...senders].entries()) {
      const response = await app.request('POST', '/api/emails', { key: sender.key, body: { from: `orders@${sender.name}`, to: `r${i}@example.net`, subject: 'Hi', text: 'Hi' } });
      expect(response.status, response.text).toBe(200);
    }
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(12);
    for (const message of mx.messages) expect(/\bd=([^;\s]+)/.exec(message.raw.slice(message.raw.indexOf('DKIM-Signature:')))?.[1]).toBe(message.raw.match(/^From: .*@([^>\s]+)/m)?.[1]);
  });
});

describe('the claim past busy destinations', () => {
  it('leaves out emails with a recipient still to deliver at a busy domain, by the stored destination or by the recipients of a mixed email', async () => {
    app.dns.a('other.example', '127.0.0.1');
    app.dns.a('third.example', '127.0.0.1');
    const single = await send('Ada@Example.NET');
    const mixed = await send(['bo@example.net', 'cy@other.example']);
    const elsewhere = await send('di@third.example');
    const rows = await app.runtime.deps.db.select({ id: emails.id, destination: emails.destination }).from(emails);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.destination]))).toEqual({ [single]: 'example.net', [mixed]: null, [elsewhere]: 'third.example' });

    const claim = async (busy: string[]) => {
      const claimed = (await claimDueEmails(app.runtime.deps, 10, busy)).map((row) => row.id);
      await app.runtime.deps.claims.release(emails, claimed);
      return claimed.sort();
    };
    expect(await claim(['example.net'])).toEqual([elsewhere]);
    expect(await claim(['other.example', 'third.example'])).toEqual([single]);
    expect(await claim([])).toEqual([single, mixed, elsewhere].sort());

    // Its example.net recipient delivered, the mixed email goes on to other.example despite the busy example.net.
    await app.runtime.deps.db
      .update(emailRecipients)
      .set({ status: 'delivered' })
      .where(and(eq(emailRecipients.emailId, mixed), eq(emailRecipients.recipientIndex, 0)));
    expect(await claim(['example.net'])).toEqual([mixed, elsewhere].sort());
  });
});
