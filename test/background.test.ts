import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import { systemEmails } from '@/db/schema';
import { apiKeyRevokedEmail } from '@/emails/api-key-revoked';
import { functionsFor } from '@/inngest/functions';
import { createSystemMailer } from '@/server/mail/system-mailer';
import { EmbeddedRunner } from '@/server/runner/embedded';
import { SWEEPS } from '@/server/runner/sweeps';
import { deliverSystemEmail, enqueueSystemEmail, sweepSystemEmails } from '@/server/services/system-mail/queue';
import { startTestApp, type TestApp } from './support/app';
import { startSmtpSink } from './support/smtp';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let refuseNext = 0;
beforeAll(async () => {
  smtp = await startSmtpSink({ reject: () => (refuseNext-- > 0 ? { code: 451, message: 'try again later' } : null) });
  app = await startTestApp({ systemMailer: createSystemMailer({ relayUrl: smtp.url, dnsServers: [], mxPort: 25, heloName: 'mx.eumail.example' }) });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});
beforeEach(async () => {
  await app.reset();
  smtp.messages.length = 0;
  refuseNext = 0;
});

const queue = (to = 'owner@acme.test') =>
  enqueueSystemEmail(app.runtime.deps.db, app.runtime.deps, {
    organizationId: null,
    kind: 'api_key_revoked',
    to,
    email: apiKeyRevokedEmail({ organizationName: 'Acme', keyName: 'k', tokenStart: 'eu_live_abcd', revokedAt: app.clock.now() }),
  });

describe('system mail outbox', () => {
  it('sends each message once even when two workers reach it together', async () => {
    const id = await queue();
    const outcomes = await Promise.all([deliverSystemEmail(app.runtime.deps, id), deliverSystemEmail(app.runtime.deps, id), sweepSystemEmails(app.runtime.deps)]);
    expect(outcomes.filter((o) => o === 'sent').length + (outcomes[2] as number)).toBe(1);
    await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(1);
  });

  it('retries with back-off when the server refuses, and sends once it accepts', async () => {
    const id = await queue();
    refuseNext = 1;
    expect(await deliverSystemEmail(app.runtime.deps, id)).toBe('retry');
    const [row] = await app.runtime.deps.db.select().from(systemEmails);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringMatching(/451|try again/) });
    expect(row!.nextAttemptAt.getTime()).toBe(app.clock.now().getTime() + 30_000);
    expect(await sweepSystemEmails(app.runtime.deps)).toBe(0); // not due yet
    app.clock.advance(30_000);
    expect(await sweepSystemEmails(app.runtime.deps)).toBe(1);
    expect(smtp.messages).toHaveLength(1);
  });

  it('gives up after the last attempt, marking the message failed', async () => {
    const id = await queue();
    refuseNext = 100;
    let outcome = '';
    for (let attempt = 0; attempt < 8; attempt += 1) {
      outcome = await deliverSystemEmail(app.runtime.deps, id);
      app.clock.advance(24 * 3600_000);
    }
    expect(outcome).toBe('failed');
    const [row] = await app.runtime.deps.db.select().from(systemEmails);
    expect(row).toMatchObject({ status: 'failed', attempts: 8 });
  });
});

describe('embedded runner', () => {
  it('delivers due work when woken, and stop() waits for the sweep in flight', async () => {
    const runner = new EmbeddedRunner(() => app.runtime.deps, SWEEPS);
    runner.start();
    const id = await queue();
    runner.wake('system-mail', id);
    await smtp.waitFor(1);
    await runner.stop();
    expect(smtp.messages[0]!.to).toEqual(['owner@acme.test']);
  });
});

describe('dispatchers', () => {
  it('are built with each runtime: a second worker in the process has slots of its own', async () => {
    const second = await startTestApp({ shareDatabaseWith: app });
    try {
      const [mine, theirs] = [app.runtime.deps.dispatchers, second.runtime.deps.dispatchers];
      expect(theirs.emails).not.toBe(mine.emails);
      expect(theirs.webhooks).not.toBe(mine.webhooks);
    } finally {
      await second.close();
    }
  });
});

describe('Inngest functions', () => {
  it('system-mail-deliver sends the message named by the event', async () => {
    const [deliver] = functionsFor('system-mail', () => app.runtime.deps);
    const id = await queue();
    const engine = new InngestTestEngine({ function: deliver! });
    const { result } = await engine.execute({ events: [{ name: 'system-mail/due', data: { id } }] });
    expect(result).toEqual({ id, outcome: 'sent' });
    expect(smtp.messages).toHaveLength(1);
  });

  it('system-mail-sweep sends what is due', async () => {
    const [, sweep] = functionsFor('system-mail', () => app.runtime.deps);
    await queue('a@acme.test');
    await queue('b@acme.test');
    const engine = new InngestTestEngine({ function: sweep! });
    const { result } = await engine.execute({ events: [{ name: 'inngest/scheduled.timer', data: {} }] });
    expect(result).toEqual({ sent: 2 });
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(['a@acme.test', 'b@acme.test']);
  });
});
