import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, queryRows } from '@/db/client';
import { buildServerBundle } from '../support/built-server';
import { faultWorld, listeningPort, postJson, timedRequest, type FaultWorld } from '../support/fault-world';
import { freePort, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { waitForOutput, type Spawned } from '../support/process';
import { startSmtpSink, type ReceivedMessage } from '../support/smtp';

/*
 * The database goes away under a running service: a Postgres of the test's own, stopped and
 * started again (and frozen with SIGSTOP), never the shared one. While it is away the API answers
 * fast 503s, SMTP answers 451, the runner backs off without crashing, and a message that was on
 * the wire keeps its outcome until the database takes it; once it is back everything recovers
 * within 10 s without a restart.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const timed = timedRequest;

/** Polls until `check` holds; answers how long it took. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check().catch(() => false)) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

const REPORT = (recipient: string) =>
  [
    'From: MAILER-DAEMON@relay.example.org',
    'To: bounces@faults.example.com',
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'It bounced.',
    '--b',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; relay.example.org',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    'Action: failed',
    'Status: 5.1.1',
    '',
    '--b--',
    '',
  ].join('\r\n');

describe.runIf(process.env.DATABASE_URL)('a database outage under a running service', () => {
  let cluster: PostgresCluster;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let world: FaultWorld;
  let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
  let service: Spawned;
  let api: string;
  let bouncePort: number;
  // The sink holds the first message's answer until the test lets it go.
  let releaseHeld: () => void = () => undefined;
  let held: Promise<void> | null = null;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const database = await openDatabase({ url: cluster.url, poolSize: 1 });
    await migrate(database);
    await database.close();
    sink = await startSmtpSink({ beforeAnswer: () => held ?? Promise.resolve() });
    world = await faultWorld({ databaseUrl: cluster.url, relayUrl: sink.url });
    bundle = await buildServerBundle('outage');
    bouncePort = await freePort();
    service = bundle.run('main', { ...world.env, BOUNCE_SMTP_PORT: String(bouncePort), LOG_LEVEL: 'info' });
    await waitForOutput(service, /Bounce receiver listening/, 30_000);
    api = `http://127.0.0.1:${listeningPort(service)}/api`;
  });
  afterAll(async () => {
    releaseHeld();
    service?.child.kill('SIGKILL');
    await service?.exited;
    bundle?.remove();
    await world?.close();
    await sink?.close();
    cluster?.destroy();
  });

  const send = (to: string) => postJson(`${api}/emails`, world.apiKey, { from: world.from, to, subject: 'Receipt', text: 'Thanks' });
  const statusOf = async (id: string) => (await timed('GET', `${api}/emails/${id}`, world.apiKey)).body?.status as string | undefined;

  it('answers fast 503s and SMTP 451 while it is away, keeps the outcome of a message on the wire, and recovers within 10 s', async () => {
    // A message goes on the wire; its 250 is held back until the database is gone.
    held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const onWire = await send('first@example.net');
    expect(onWire.status).toBe(200);
    await sink.waitFor(1, 15_000);
    const first: ReceivedMessage = sink.messages[0]!;
    expect(first.emailId).toBe(onWire.body.id);

    cluster.stop();
    const down = performance.now();
    releaseHeld();
    held = null;

    // Liveness stays up; readiness and every API call answer 503 SERVICE_UNAVAILABLE with Retry-After, fast.
    expect((await timed('GET', `${api}/health`)).status).toBe(200);
    const calls = [
      await timed('GET', `${api}/health/ready`),
      await timed('GET', `${api}/emails`, world.apiKey),
      await timed('GET', `${api}/emails/${onWire.body.id}`, world.apiKey),
      await timed('POST', `${api}/emails`, world.apiKey, { from: world.from, to: 'second@example.net', subject: 'Hi', text: 'Hi' }),
      await timed('POST', `${api}/emails/batch`, world.apiKey, [{ from: world.from, to: 'third@example.net', subject: 'Hi', text: 'Hi' }]),
      await timed('GET', `${api}/domains`, world.apiKey),
      await timed('POST', `${api}/api-keys`, world.apiKey, { name: 'during the outage' }),
      await timed('GET', `${api}/trpc/emails.list?input=${encodeURIComponent(JSON.stringify({}))}`, world.apiKey),
    ];
    for (const call of calls) {
      expect(call.status).toBe(503);
      expect(call.ms).toBeLessThan(5_000);
      expect(call.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    for (const call of calls.slice(0, -1)) expect(call.body).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE', request_id: expect.any(String) });
    expect(calls.at(-1)!.body.error.data.envelope.code).toBe('SERVICE_UNAVAILABLE');

    // The bounce receiver cannot record a report: 451, the sender keeps it and tries again later.
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: bouncePort, secure: false, ignoreTLS: true, connectionTimeout: 5_000 });
    const refused = await transport.sendMail({ envelope: { from: '', to: [first.from] }, raw: REPORT('first@example.net') }).then(
      () => null,
      (error: { responseCode?: number }) => error,
    );
    expect(refused?.responseCode).toBe(451);
    transport.close();

    // The runner backs off rather than spinning, and the process stays up.
    await sleep(6_000);
    expect(service.child.exitCode).toBeNull();
    const lines = service.output().split('\n').filter((line) => line.includes('"sweep'));
    const sweepLines = lines.filter((line) => /sweep (paused|failed)/.test(line));
    expect(sweepLines.length).toBeLessThanOrEqual(8);
    const slowest = Math.max(...calls.map((call) => call.ms));

    cluster.start();
    const up = performance.now();
    const ready = await until(async () => (await timed('GET', `${api}/health/ready`)).status === 200, 10_000);
    const second = await send('second@example.net');
    expect(second.status).toBe(200);
    // The held outcome is written, the new email goes out, each once, all within 10 s of the restart.
    await until(async () => (await statusOf(onWire.body.id)) === 'delivered' && (await statusOf(second.body.id)) === 'delivered', 20_000);
    const recovered = performance.now() - up;
    if (recovered >= 10_000) console.log(`ready ${ready}\n${service.output().split('\n').slice(-40).join('\n')}`);
    expect(recovered).toBeLessThan(10_000);
    await sleep(2_000);
    expect(sink.messages.filter((message) => message.emailId === onWire.body.id)).toHaveLength(1);
    expect(sink.messages.filter((message) => message.emailId === second.body.id)).toHaveLength(1);
    const history = (await timed('GET', `${api}/emails/${onWire.body.id}`, world.apiKey)).body.events.map((event: { type: string }) => event.type);
    expect(history).toEqual(['email.queued', 'email.sent', 'email.delivered']);
    console.log(
      `outage: down ${Math.round(up - down)} ms; slowest answer while down ${Math.round(slowest)} ms; ready again ${Math.round(ready)} ms after the restart, everything delivered ${Math.round(recovered)} ms after it; ${sweepLines.length} sweep log lines while down`,
    );
  }, 120_000);

  it('answers 503 within 5 s while the database is frozen (a server that accepts but never answers)', async () => {
    const pids = cluster.pids();
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      const calls = [await timed('GET', `${api}/emails`, world.apiKey), await timed('POST', `${api}/emails`, world.apiKey, { from: world.from, to: 'frozen@example.net', subject: 'Hi', text: 'Hi' })];
      for (const call of calls) {
        expect(call.status).toBe(503);
        expect(call.body.code).toBe('SERVICE_UNAVAILABLE');
        expect(call.ms).toBeLessThan(5_000);
      }
      console.log(`frozen database: answers in ${calls.map((call) => Math.round(call.ms)).join(', ')} ms`);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    await until(async () => (await timed('GET', `${api}/emails`, world.apiKey)).status === 200, 10_000);
    const rows = await queryRows<{ n: number }>(world.runtime.deps.db, sql`select count(*)::int as n from emails where "to" @> array['frozen@example.net']`);
    // A request answered 503 did not commit behind the client's back.
    expect(rows[0]!.n).toBe(0);
  }, 120_000);
});
