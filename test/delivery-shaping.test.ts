import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { emailEvents, emails, suppressions, systemEmails } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { closeRelayPools } from '@/server/mail/delivery';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { databaseShapingStore, type ProviderStatus } from '@/server/services/delivery-shaping';
import { startTestApp, type TestApp } from './support/app';
import { captureLog } from './support/log-capture';
import { scrapeMetrics } from './support/metrics';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer, type Refusal } from './support/smtp-mx';

/*
 * Loopback MX servers that behave like mailbox providers, one per loopback address on the one
 * SMTP_MX_PORT (each MX host is a provider of its own): one that answers 421 to every third
 * message, one that blocks us for reputation, and a slow one beside a healthy one. The whole
 * pipeline runs (API, claim, dispatcher, MX delivery, outcome), under the test clock.
 */

const OPERATOR = 'ops@operator.example';
let app: TestApp;
let first: MxServer;
let second: MxServer;
let onData: (recipients: string[]) => Refusal = () => null;
let onRcpt: (address: string) => Refusal | Promise<Refusal> = () => null;
let onSecondRcpt: (address: string) => Refusal | Promise<Refusal> = () => null;
const captured = captureLog('info');

beforeAll(async () => {
  first = await startMxServer({ rcpt: (address) => onRcpt(address), data: (recipients) => onData(recipients) });
  second = await startMxServer({ host: '127.0.0.2', port: first.port, rcpt: (address) => onSecondRcpt(address) });
  app = await startTestApp({
    env: {
      SMTP_MX_PORT: String(first.port),
      SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      MAIL_HOST: 'mx.eumail.example',
      OPERATOR_EMAIL: OPERATOR,
      DELIVERY_PROVIDER_LIMITS: JSON.stringify({ 'mx.capped.example': { connections: 2, messagesPerConnection: 3 }, 'mx.rated.example': { messagesPerMinute: 6 } }),
    },
    log: captured.log,
  });
});
afterAll(async () => {
  await app.close();
  await first.close();
  await second.close();
});

let org: { organizationId: string; apiKey: string };
beforeEach(async () => {
  await app.reset();
  first.messages.length = 0;
  second.messages.length = 0;
  onData = () => null;
  onRcpt = () => null;
  onSecondRcpt = () => null;
  captured.lines.length = 0;
  org = await sendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
});

const send = async (to: string, key = org.apiKey, from = 'Acme <hello@acme.example.com>') => {
  const response = await app.request('POST', '/api/emails', { key, body: { from, to, subject: 'Receipt', text: 'Thanks' } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
};

const status = async (): Promise<ProviderStatus[]> => ((await runAdminCommand(app.runtime.deps, 'delivery:status', {})) as { providers: ProviderStatus[] }).providers;
const laneOf = async (provider: string, sendingDomain: string) => (await status()).find((p) => p.provider === provider)?.lanes.find((l) => l.sendingDomain === sendingDomain);

/** Sweeps, then moves the clock to the next due email, until none is left to send (or the bound). */
async function runUntilDone(ids: string[], bound: number): Promise<number> {
  const deps = app.runtime.deps;
  for (let round = 0; round < bound; round += 1) {
    await sweepEmailDispatch(deps);
    const open = await deps.db
      .select({ at: emails.nextAttemptAt })
      .from(emails)
      .where(and(inArray(emails.id, ids), isNotNull(emails.nextAttemptAt), ne(emails.status, 'canceled')));
    if (open.length === 0) return round + 1;
    const next = Math.min(...open.map((row) => row.at!.getTime()));
    app.clock.set(new Date(Math.max(next, app.clock.now().getTime())));
  }
  throw new Error(`not done after ${bound} rounds`);
}

const eventsOf = (ids: string[]) => app.runtime.deps.db.select().from(emailEvents).where(inArray(emailEvents.emailId, ids));

describe('a provider that answers 421 to every third message', () => {
  it('slows down, delivers everything exactly once, and loses nothing within the window', async () => {
    let seen = 0;
    let refused = 0;
    onData = () => {
      seen += 1;
      if (seen % 3 !== 0) return null;
      refused += 1;
      return { code: 421, message: '4.7.0 Try again later, closing connection. (rate limited)' };
    };
    const addresses = Array.from({ length: 24 }, (_, i) => `reader${i}@example.net`);
    const ids: string[] = [];
    for (const address of addresses) ids.push(await send(address));
    const start = app.clock.now().getTime();

    await sweepEmailDispatch(app.runtime.deps);
    // The first 421 halved the rate (from the few sent that minute, to the floor): the rest are held, not tried.
    const slowed = await laneOf('mx.example.net', 'acme.example.com');
    expect(slowed).toMatchObject({ adapted: true, ratePerMinute: 10 });
    expect(slowed!.deferrals).toBeGreaterThan(0);
    expect(first.messages.length).toBeLessThan(addresses.length);
    const early = await scrapeMetrics(app.url);
    expect(early).toMatch(/eumail_delivery_provider_deferral_ratio\{provider="mx.example.net"\} 0\.\d+/);
    expect(early).toContain('eumail_delivery_provider_rate_per_minute{provider="mx.example.net",sending_domain="acme.example.com"} 10');
    expect(early).toMatch(/eumail_delivery_provider_queue\{provider="mx.example.net"\} [1-9]\d*/);

    await runUntilDone(ids, 400);
    const rows = await app.runtime.deps.db.select({ status: emails.status }).from(emails).where(inArray(emails.id, ids));
    expect(rows.every((row) => row.status === 'delivered')).toBe(true);
    // Each address received exactly one copy, and all of it within far less than the 72-hour window.
    const received = first.messages.flatMap((message) => message.to).sort();
    expect(received).toEqual([...addresses].sort());
    expect(app.clock.now().getTime() - start).toBeLessThan(6 * 60 * 60_000);
    // Every 421 is one email.delivery_delayed with the reply; a hold (not tried) is none.
    const delayed = (await eventsOf(ids)).filter((event) => event.type === 'email.delivery_delayed');
    expect(delayed).toHaveLength(refused);
    expect(delayed[0]!.data).toMatchObject({ smtpCode: 421, bounce: { class: 'rate_limited' } });
    expect(String((delayed[0]!.data as { response: string }).response)).toMatch(/421 4\.7\.0 Try again later/);
  });
});

describe('a provider that blocks us for reputation', () => {
  it('is paused for everyone when the block names our address, alerts the operator, and bounces nobody before the window', async () => {
    let tried = 0;
    onRcpt = () => {
      tried += 1;
      return { code: 550, message: '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org' };
    };
    const ids = [await send('a@example.net'), await send('b@example.net'), await send('c@example.net')];
    await sweepEmailDispatch(app.runtime.deps);

    const lane = await laneOf('mx.example.net', '*');
    expect(lane?.paused).toMatchObject({ by: 'reply', reason: expect.stringMatching(/blocked using zen\.spamhaus\.org/) });
    const afterFirst = await app.runtime.deps.db.select({ status: emails.status }).from(emails).where(inArray(emails.id, ids));
    expect(afterFirst.map((row) => row.status)).toEqual(['sending', 'sending', 'sending']);
    // The alert: an error line, the metrics, and a message to OPERATOR_EMAIL.
    expect(captured.lines.some((line) => line.level === 50 && /deliveries to mx\.example\.net paused/.test(line.msg))).toBe(true);
    const metrics = await scrapeMetrics(app.url);
    expect(metrics).toContain('eumail_delivery_provider_paused{provider="mx.example.net",sending_domain="*"} 1');
    expect(metrics).toContain('eumail_delivery_provider_pauses_total{provider="mx.example.net",scope="service"} 1');
    await app.runtime.deps.shaping.settled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const alerts = await app.runtime.deps.db.select().from(systemEmails).where(eq(systemEmails.kind, 'delivery_paused'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ toAddress: OPERATOR, subject: 'Deliveries to mx.example.net paused: blocked for reputation' });

    // Held while paused: a second sweep an hour on less a minute tries nobody.
    const triedBefore = tried;
    app.clock.advance(59 * 60_000);
    await sweepEmailDispatch(app.runtime.deps);
    expect(tried).toBe(triedBefore);

    // Through the window: probed again each hour, still blocked, then failed with the classifier's explanation.
    await runUntilDone(ids, 1000);
    const events = await eventsOf(ids);
    expect(events.some((event) => event.type === 'email.bounced')).toBe(false);
    const failed = events.filter((event) => event.type === 'email.failed');
    expect(failed).toHaveLength(3);
    expect(failed[0]!.data).toMatchObject({ reason: 'not accepted within 72 hours', bounce: { class: 'spam_block' } });
    expect(await app.runtime.deps.db.select().from(suppressions)).toHaveLength(0);
    // About one probe an hour, not a message a minute: the pause held.
    expect(tried).toBeLessThan(3 * 80);
    // At most one alert a day however often it blocks again after a pause: 0, 24, 48 and 72 hours.
    expect((await app.runtime.deps.db.select().from(systemEmails).where(eq(systemEmails.kind, 'delivery_paused'))).length).toBeLessThanOrEqual(4);
  });

  it('pauses only the sending domain a block names, and the operator resumes it', async () => {
    const other = await sendingOrg(app, { name: 'Other' }, 'other.example.org');
    let blockAcme = true;
    const acmeBlocked = { code: 554, message: '5.7.1 Message rejected: acme.example.com has poor reputation' };
    // The block names acme's domain (the MX tells the senders apart by their recipients here).
    onRcpt = (address) => (blockAcme && address.startsWith('acme-') ? acmeBlocked : null);
    const acme = await send('acme-1@example.net');
    const fromOther = await send('other-1@example.net', other.apiKey, 'Other <hi@other.example.org>');
    await sweepEmailDispatch(app.runtime.deps);

    expect((await laneOf('mx.example.net', 'acme.example.com'))?.paused).toMatchObject({ by: 'reply' });
    expect(await laneOf('mx.example.net', '*')).toBeUndefined();
    const [acmeRow] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, acme));
    const [otherRow] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, fromOther));
    expect(acmeRow!.status).toBe('sending');
    expect(otherRow!.status).toBe('delivered');

    // The operator resumes it; the provider now accepts.
    blockAcme = false;
    const resumed = (await runAdminCommand(app.runtime.deps, 'delivery:resume', { provider: 'mx.example.net' })) as { status: ProviderStatus };
    expect(resumed.status.lanes.every((l) => l.paused === null)).toBe(true);
    await runUntilDone([acme], 50);
    expect((await app.runtime.deps.db.select().from(emails).where(eq(emails.id, acme)))[0]!.status).toBe('delivered');
  });
});

describe('operator pause', () => {
  it('holds a provider until resumed, and survives a restart of the shaper', async () => {
    const paused = (await runAdminCommand(app.runtime.deps, 'delivery:pause', { provider: 'mx.example.net', reason: 'maintenance' })) as { status: ProviderStatus };
    expect(paused.status.lanes[0]).toMatchObject({ sendingDomain: '*', paused: { by: 'operator', reason: 'maintenance', until: null } });
    const id = await send('ada@example.net');
    // A process that starts now reads the pause from the database.
    app.runtime.deps.shaping.reset();
    await app.runtime.deps.shaping.load();
    await sweepEmailDispatch(app.runtime.deps);
    expect(first.messages).toHaveLength(0);
    const queued = (await status()).find((p) => p.provider === 'mx.example.net');
    expect(queued?.queued).toBe(1);

    await runAdminCommand(app.runtime.deps, 'delivery:resume', { provider: 'mx.example.net' });
    await runUntilDone([id], 10);
    expect(first.messages).toHaveLength(1);
  });
});

describe('what outlives a process', () => {
  it('keeps an adapted rate across a restart, and sees a pause another process made at its next sync', async () => {
    const { shaping, db } = app.runtime.deps;
    for (let i = 0; i < 40; i += 1) shaping.admit('google', 'acme.example.com');
    shaping.observe('google', 'acme.example.com', { smtpCode: 421, text: '4.7.28 unusual rate of unsolicited mail' });
    await shaping.sync();
    shaping.reset();
    await shaping.load();
    expect(shaping.rateOf(shaping.lane('google', 'acme.example.com'))).toBe(20);

    // Another process (here: a second store over the same database) pauses Microsoft for everyone.
    await databaseShapingStore(db).savePause({ provider: 'microsoft', sendingDomain: '', at: app.clock.now(), until: null, by: 'operator', reason: 'elsewhere' });
    expect(shaping.admit('microsoft', 'acme.example.com')).toBeNull();
    await shaping.sync();
    expect(shaping.admit('microsoft', 'acme.example.com')?.reason).toMatch(/paused \(by the operator\): elsewhere/);
  });

  it('refuses a pause without a provider', async () => {
    await expect(runAdminCommand(app.runtime.deps, 'delivery:pause', {})).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR', message: '--provider is required' });
  });
});

describe('a provider whose first MX host is down', () => {
  it('is not slowed down while its other host takes the mail', async () => {
    // Nothing listens on 127.0.0.3: every connection to the first host is refused.
    app.dns.mx('backup.example', 'mx1.backup.example', 10);
    app.dns.mx('backup.example', 'mx2.backup.example', 20);
    app.dns.a('mx1.backup.example', '127.0.0.3');
    app.dns.a('mx2.backup.example', '127.0.0.1');
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push(await send(`b${i}@backup.example`));
    await sweepEmailDispatch(app.runtime.deps);
    const rows = await app.runtime.deps.db.select({ status: emails.status }).from(emails).where(inArray(emails.id, ids));
    expect(rows.every((row) => row.status === 'delivered')).toBe(true);
    expect(await laneOf('mx1.backup.example', 'acme.example.com')).toMatchObject({ adapted: false, deferrals: 0 });
  });
});

describe('each recipient keeps its own back-off', () => {
  it('a recipient held a few seconds by a rate does not bring its deferred sibling back early', async () => {
    app.dns.mx('rated.example', 'mx.rated.example');
    app.dns.a('mx.rated.example', '127.0.0.2');
    const tries: string[] = [];
    let refuseAda = true;
    onRcpt = (address) => {
      tries.push(address);
      return refuseAda ? { code: 451, message: '4.3.0 Mailbox temporarily unavailable' } : null;
    };
    // The first takes the rated provider's one place of the moment (6 a minute, a burst of one):
    // swept on its own, since in one sweep the two emails would race for it.
    await send('first@rated.example');
    await sweepEmailDispatch(app.runtime.deps);
    const id = (
      await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'Acme <hello@acme.example.com>', to: ['second@rated.example', 'ada@example.net'], subject: 'Receipt', text: 'Thanks' } })
    ).body.id as string;
    await sweepEmailDispatch(app.runtime.deps);
    expect(tries).toEqual(['ada@example.net']);
    const [afterFirst] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id));
    // Due again when the held one has a place (10 s), not in ada's minute.
    expect(afterFirst!.nextAttemptAt!.getTime() - app.clock.now().getTime()).toBe(10_000);

    app.clock.advance(10_000);
    await sweepEmailDispatch(app.runtime.deps);
    expect(second.messages.map((m) => m.to[0]).sort()).toEqual(['first@rated.example', 'second@rated.example']);
    // ada's back-off (a minute) is not over: not tried again.
    expect(tries).toEqual(['ada@example.net']);
    const [afterSecond] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id));
    expect(afterSecond!.nextAttemptAt!.getTime() - app.clock.now().getTime()).toBe(50_000);

    refuseAda = false;
    app.clock.advance(50_000);
    await sweepEmailDispatch(app.runtime.deps);
    expect(tries).toEqual(['ada@example.net', 'ada@example.net']);
    expect((await app.runtime.deps.db.select().from(emails).where(eq(emails.id, id)))[0]!.status).toBe('delivered');
  });
});

describe('connections and messages per connection', () => {
  it('opens no more connections than the provider allows, each for its number of messages', async () => {
    app.dns.mx('capped.example', 'mx.capped.example');
    app.dns.a('mx.capped.example', '127.0.0.2');
    // Slow enough that the dispatcher's eight emails in flight all want a connection at once.
    onSecondRcpt = () => new Promise((resolve) => setTimeout(() => resolve(null), 30));
    // Sessions other tests left open to this server (other providers on 127.0.0.2) must not count.
    closeRelayPools();
    await second.dropClients();
    second.resetPeak();
    const before = second.connections();
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await send(`c${i}@capped.example`));
    await runUntilDone(ids, 5);
    expect(second.messages).toHaveLength(12);
    expect(second.peakConnections()).toBeLessThanOrEqual(2);
    expect(second.connections() - before).toBeGreaterThanOrEqual(4);
  });
});

describe('two providers at once', () => {
  it('a slow provider that defers does not hold back a healthy one', async () => {
    app.dns.mx('slow.example', 'mx.slow.example');
    app.dns.a('mx.slow.example', '127.0.0.1');
    app.dns.mx('fast.example', 'mx.fast.example');
    app.dns.a('mx.fast.example', '127.0.0.2');
    // The slow one takes 300 ms to answer each recipient, and then asks us to slow down.
    onRcpt = (address) =>
      address.endsWith('@slow.example') ? new Promise((resolve) => setTimeout(() => resolve({ code: 421, message: '4.7.0 Too many messages, slow down' }), 300)) : null;
    const slow: string[] = [];
    const fast: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      slow.push(await send(`s${i}@slow.example`));
      fast.push(await send(`f${i}@fast.example`));
    }
    const started = performance.now();
    await sweepEmailDispatch(app.runtime.deps);
    expect(performance.now() - started).toBeLessThan(5_000);

    expect(second.messages.map((m) => m.to[0]).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `f${i}@fast.example`).sort());
    const fastRows = await app.runtime.deps.db.select({ status: emails.status }).from(emails).where(inArray(emails.id, fast));
    expect(fastRows.every((row) => row.status === 'delivered')).toBe(true);
    expect((await laneOf('mx.slow.example', 'acme.example.com'))?.adapted).toBe(true);
    const fastLane = await laneOf('mx.fast.example', 'acme.example.com');
    expect(fastLane).toMatchObject({ adapted: false, ratePerMinute: null, deferrals: 0 });
    const slowRows = await app.runtime.deps.db.select({ status: emails.status }).from(emails).where(inArray(emails.id, slow));
    expect(slowRows.every((row) => row.status === 'sending')).toBe(true);
  });
});
