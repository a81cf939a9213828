import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails } from '@/db/schema';
import { closeRelayPools } from '@/server/mail/delivery';
import { clearMxDns } from '@/server/mail/mx-dns';
import { PER_DESTINATION } from '@/server/services/emails/pipeline/destinations';
import { dispatchesInFlight, sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { startTestApp, type TestApp } from './support/app';
import { startFaultyMxes, type Behaviour, type FaultyMx } from './support/faulty-mx';
import { sendingOrg } from './support/sending-org';

// Receiving servers that misbehave on purpose (issue 10): raw SMTP servers on loopback, the real
// pipeline (API, claim, dispatch, MX sessions, history) over a real database. Only business time
// is fake: the retry back-off is crossed with the test clock.

/**
 * SMTP_TIMEOUT_MS: bounds every wait of a session, so a tarpit costs this much real time. Long
 * enough that mail to a healthy MX (half a second for 10 emails on PGlite) is surely in before a
 * tarpit times out even on a loaded machine.
 */
const SMTP_TIMEOUT_MS = 3_000;
/** The first retry of a deferred recipient (RETRY_DELAYS_MS[0] in live-delivery.ts). */
const FIRST_RETRY_MS = 60_000;
/** Sessions per MX address (mx-sessions.ts). */
const SESSIONS_PER_MX = 5;
/** A bound for each test: the slowest waits out a few tarpit timeouts. */
const TEST_BOUND_MS = 15_000;

let app: TestApp;
/** example.net's MX, mx.example.net on 127.0.0.1. */
let mx: FaultyMx;
/** slow.example's MX, mx.slow.example on 127.0.0.2, on the same port (SMTP_MX_PORT is one for all). */
let slowMx: FaultyMx;

beforeAll(async () => {
  [mx, slowMx] = (await startFaultyMxes(['127.0.0.1', '127.0.0.2'])) as [FaultyMx, FaultyMx];
  app = await startTestApp({
    env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example', SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS) },
  });
});
afterAll(async () => {
  closeRelayPools();
  await app?.close();
  await Promise.all([mx?.close(), slowMx?.close()]);
});

let apiKey: string;
beforeEach(async () => {
  // Sessions pooled by the previous test, and its DNS answers, must not carry over.
  closeRelayPools();
  clearMxDns();
  mx.reset();
  slowMx.reset();
  await app.reset();
  ({ apiKey } = await sendingOrg(app));
  app.dns.a('mx.example.net', '127.0.0.1');
  app.dns.mx('slow.example', 'mx.slow.example');
  app.dns.a('mx.slow.example', '127.0.0.2');
});

interface HistoryEvent {
  type: string;
  recipient: string | null;
  data: Record<string, any>;
}

const send = async (to = 'ada@example.net') => {
  const response = await app.request('POST', '/api/emails', { key: apiKey, body: { from: 'Acme <hello@acme.example.com>', to, subject: 'Receipt', text: 'Thanks' } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
};
const detail = async (id: string): Promise<{ status: string; events: HistoryEvent[] }> => (await app.request('GET', `/api/emails/${id}`, { key: apiKey })).body;
const historyOf = (events: HistoryEvent[]) => events.map((e) => (e.recipient ? `${e.type} ${e.recipient}` : e.type));
const sweep = () => sweepEmailDispatch(app.runtime.deps);

/** The Message-ID the email went out with, from its email.sent event. */
const messageIdOf = (events: HistoryEvent[]) => events.find((e) => e.type === 'email.sent')?.data.messageId as string;

/** Nothing is sent before the back-off is over; once it is, the retry goes out. */
async function retryAfterBackOff(): Promise<Awaited<ReturnType<typeof sweep>>> {
  app.clock.advance(FIRST_RETRY_MS - 1);
  expect((await sweep()).handled).toBe(0);
  app.clock.advance(1);
  return sweep();
}

/** The email was delivered, and every message this server took was taken once (none twice). */
async function expectDeliveredOnce(server: FaultyMx, id: string): Promise<HistoryEvent[]> {
  const { status, events } = await detail(id);
  expect(status).toBe('delivered');
  const copies = server.copiesById();
  expect(copies.get(messageIdOf(events))).toBe(1);
  expect([...copies].filter(([, count]) => count > 1)).toEqual([]);
  return events;
}

/** How many of these emails the database has as delivered. */
const deliveredAmong = async (ids: string[]) =>
  (await app.runtime.deps.db.select({ id: emails.id }).from(emails).where(and(inArray(emails.id, ids), eq(emails.status, 'delivered')))).length;

/** Polls until `done` holds; fails the test past `withinMs`. */
async function until(done: () => boolean | Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a receiving server that fails, then accepts', () => {
  it(
    'tarpit: the attempt ends at SMTP_TIMEOUT_MS, the recipient is deferred, and the retry after the back-off delivers it once',
    async () => {
      mx.script('tarpit');
      const id = await send();
      const started = performance.now();
      expect((await sweep()).outcomes).toEqual({ sending: 1 });
      const took = performance.now() - started;
      // Cut off by the timeout, not before, and not much after.
      expect(took).toBeGreaterThanOrEqual(SMTP_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(2 * SMTP_TIMEOUT_MS);
      const deferred = await detail(id);
      expect(deferred.status).toBe('sending');
      expect(historyOf(deferred.events)).toEqual(['email.queued', 'email.delivery_delayed ada@example.net']);
      expect(deferred.events[1]!.data).toMatchObject({ smtpCode: null, host: 'mx.example.net', attempt: 1, response: expect.stringMatching(/^mx\.example\.net \[127\.0\.0\.1\]: ETIMEDOUT: /) });
      expect(mx.messages).toHaveLength(0);

      expect((await retryAfterBackOff()).outcomes).toEqual({ delivered: 1 });
      const events = await expectDeliveredOnce(mx, id);
      expect(historyOf(events)).toEqual(['email.queued', 'email.delivery_delayed ada@example.net', 'email.sent', 'email.delivered ada@example.net']);
      expect(events[3]!.data).toMatchObject({ smtpCode: 250, host: 'mx.example.net' });
      expect(mx.played).toEqual(['tarpit', 'accept']);
    },
    TEST_BOUND_MS,
  );

  // What the first attempt's email.delivery_delayed says, for each fault, and the connections the two attempts took.
  it.each<{ fault: Behaviour; smtpCode: number | null; response: RegExp; connections: Behaviour[] }>([
    { fault: 'drop-mid-data', smtpCode: null, response: /^mx\.example\.net \[127\.0\.0\.1\]: ECONNECTION: Connection closed unexpectedly/, connections: ['drop-mid-data', 'accept'] },
    { fault: 'greet-421', smtpCode: 421, response: /^mx\.example\.net \[127\.0\.0\.1\]: 421 4\.3\.2 /, connections: ['greet-421', 'accept'] },
    // A 451 leaves the connection usable (after RSET): the retry reuses it, and the greylister now lets the envelope through.
    { fault: 'rcpt-451', smtpCode: 451, response: /^mx\.example\.net \[127\.0\.0\.1\]: 451 4\.7\.1 Greylisted/, connections: ['rcpt-451'] },
  ])(
    '$fault: deferred with the reason in the history, delivered once on the retry after the back-off',
    async ({ fault, smtpCode, response, connections }) => {
      mx.script(fault);
      const id = await send();
      expect((await sweep()).outcomes).toEqual({ sending: 1 });
      const deferred = await detail(id);
      expect(deferred.status).toBe('sending');
      expect(historyOf(deferred.events)).toEqual(['email.queued', 'email.delivery_delayed ada@example.net']);
      expect(deferred.events[1]!.data).toMatchObject({ smtpCode, host: 'mx.example.net', attempt: 1, response: expect.stringMatching(response) });
      expect(mx.messages).toHaveLength(0);

      expect((await retryAfterBackOff()).outcomes).toEqual({ delivered: 1 });
      const events = await expectDeliveredOnce(mx, id);
      expect(historyOf(events)).toEqual(['email.queued', 'email.delivery_delayed ada@example.net', 'email.sent', 'email.delivered ada@example.net']);
      expect(events[3]!.data).toMatchObject({ smtpCode: 250, host: 'mx.example.net' });
      expect(events[3]!.data).not.toHaveProperty('earlierTries');
      expect(mx.played).toEqual(connections);
    },
    TEST_BOUND_MS,
  );
});

describe('a STARTTLS handshake that fails', () => {
  it.each<{ fault: Behaviour; how: string }>([
    { fault: 'bad-tls', how: 'the server answers the ClientHello with bytes that are not TLS' },
    { fault: 'tls-hangup', how: 'the server hangs up after its 220' },
  ])(
    '$fault ($how): the same attempt goes on in plaintext, delivered once, the TLS failure in the history',
    async ({ fault }) => {
      mx.script(fault);
      const id = await send();
      expect((await sweep()).outcomes).toEqual({ delivered: 1 });
      const events = await expectDeliveredOnce(mx, id);
      expect(historyOf(events)).toEqual(['email.queued', 'email.sent', 'email.delivered ada@example.net']);
      // Delivered without TLS (no "(TLS)" in the label), after the failed handshake.
      expect(events[2]!.data).toMatchObject({
        smtpCode: 250,
        response: expect.stringMatching(/^mx\.example\.net \[127\.0\.0\.1\]: 250 /),
        earlierTries: [expect.stringMatching(/^mx\.example\.net \[127\.0\.0\.1\]: ETLS: /)],
      });
      // Two connections in the one attempt: the broken handshake, then plaintext.
      expect(mx.played).toEqual([fault, 'accept']);
    },
    TEST_BOUND_MS,
  );
});

describe('one slow MX among others', () => {
  it(
    'never delays mail to the others, holds at most PER_DESTINATION emails, and its mail goes once it recovers',
    async () => {
      // slow.example's MX tarpits as many sessions as we open to it, then, swamped, turns the next
      // ones away (421), so the test waits out one round of tarpit timeouts, not two.
      slowMx.script(...Array.from({ length: SESSIONS_PER_MX }, (): Behaviour => 'tarpit'));
      slowMx.setDefault('greet-421');
      // More than PER_DESTINATION, so the limit holds some back.
      const slow = await Promise.all(Array.from({ length: 2 * SESSIONS_PER_MX }, (_, i) => send(`reader${i}@slow.example`)));
      // Due after the slow ones: without the per-destination limit they would queue behind them.
      app.clock.advance(1);
      const fast = await Promise.all(Array.from({ length: 10 }, (_, i) => send(`reader${i}@example.net`)));

      const started = performance.now();
      const sweeping = sweep();
      const inFlight: number[] = [];
      const sampler = setInterval(() => inFlight.push(dispatchesInFlight(app.runtime.deps)), 5);
      let report: Awaited<typeof sweeping>;
      try {
        await until(() => mx.messages.length === fast.length, SMTP_TIMEOUT_MS, 'the fast domain got its 10 messages');
        // All of them in while every tarpitted session is still open, none yet given up.
        expect(performance.now() - started).toBeLessThan(SMTP_TIMEOUT_MS);
        expect(slowMx.connections()).toBe(SESSIONS_PER_MX);
        expect(slowMx.openConnections()).toBe(SESSIONS_PER_MX);
        // Once the fast ones' outcomes are written, only slow.example's emails are in flight: its
        // share of the process's slots (some waiting for one of its sessions), and never more.
        await until(async () => (await deliveredAmong(fast)) === fast.length, SMTP_TIMEOUT_MS, 'the fast outcomes were written');
        inFlight.length = 0;
        // The slow domain's emails that were waiting for room are given back rather than held.
        await until(() => app.runtime.deps.claims.heldCount() === PER_DESTINATION, SMTP_TIMEOUT_MS, 'only the emails in flight are held');
      } finally {
        // Even when an expectation failed: the sweep must not outlive the test.
        report = await sweeping.finally(() => clearInterval(sampler));
      }
      expect(inFlight[0]).toBe(PER_DESTINATION);
      expect(Math.max(...inFlight)).toBe(PER_DESTINATION);
      expect(report.outcomes).toEqual({ delivered: fast.length, sending: slow.length });
      for (const id of fast) expect(historyOf(await expectDeliveredOnce(mx, id))).toEqual(['email.queued', 'email.sent', expect.stringMatching(/^email\.delivered /)]);
      // Each slow email tried at most once, on a connection of its own: the tarpitted ones cut off by
      // the timeout, the others turned away. Its first failure slowed the provider down (traffic
      // shaping, docs/delivery.md), so an email may not have been tried at all: held, with no event.
      const reasons: string[] = [];
      const held: string[] = [];
      for (const id of slow) {
        const { status, events } = await detail(id);
        expect(status).toBe('sending');
        if (events.length === 1) {
          expect(historyOf(events)).toEqual(['email.queued']);
          held.push(id);
          continue;
        }
        expect(historyOf(events)).toEqual(['email.queued', expect.stringMatching(/^email\.delivery_delayed /)]);
        expect(events[1]!.data).toMatchObject({ attempt: 1, host: 'mx.slow.example', response: expect.stringMatching(/^mx\.slow\.example \[127\.0\.0\.2\]: /) });
        reasons.push(/ETIMEDOUT|421/.exec(events[1]!.data.response)?.[0] ?? events[1]!.data.response);
      }
      expect(slowMx.connections()).toBe(slow.length - held.length);
      expect(held.length).toBeLessThan(SESSIONS_PER_MX);
      expect(reasons.sort()).toEqual([...Array(SESSIONS_PER_MX - held.length).fill('421'), ...Array(SESSIONS_PER_MX).fill('ETIMEDOUT')]);

      slowMx.setDefault('accept');
      // Nothing before the back-off is over but the held ones (due when the slowed provider has room),
      // then every one, at the slowed provider's pace.
      for (let round = 0; round < 40 && (await deliveredAmong(slow)) < slow.length; round += 1) {
        const due = await app.runtime.deps.db.select({ at: emails.nextAttemptAt }).from(emails).where(inArray(emails.id, slow));
        const next = Math.min(...due.filter((row) => row.at).map((row) => row.at!.getTime()));
        if (Number.isFinite(next) && next > app.clock.now().getTime()) app.clock.set(new Date(next));
        await sweep();
      }
      expect(slowMx.messages).toHaveLength(slow.length);
      for (const id of slow) {
        const history = historyOf(await expectDeliveredOnce(slowMx, id));
        expect(history).toEqual([
          'email.queued',
          ...(held.includes(id) ? [] : [expect.stringMatching(/^email\.delivery_delayed /)]),
          'email.sent',
          expect.stringMatching(/^email\.delivered /),
        ]);
      }
      // Nothing more went to the fast domain.
      expect(mx.messages).toHaveLength(fast.length);
    },
    TEST_BOUND_MS,
  );
});
