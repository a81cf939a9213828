import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { openTestDatabase } from '../support/database';
import { faultWorld, listeningPort, postJson, workerIdOf, type FaultWorld } from '../support/fault-world';
import { freePort } from '../support/postgres-cluster';
import { spawnCaptured, waitForOutput, type Spawned } from '../support/process';
import { startSmtpSink } from '../support/smtp';

/*
 * A stop signal the way a terminal or a process supervisor sends it: to the whole process group
 * of `npm start`, so npm and the server each get it (and npm passes its own copy on). The server
 * stops taking connections, finishes what is in flight, leaves its claims to the others and exits
 * 0, and npm with it; work cut off by SHUTDOWN_GRACE_MS is taken over at once by the next process;
 * a second signal exits at once.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe.runIf(process.env.DATABASE_URL)('stopping npm start with a signal to its process group', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let world: FaultWorld;
  // How long the sink holds each message's 250: the time a message stays on the wire.
  let holdMs = 0;
  const started: Spawned[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    sink = await startSmtpSink({ beforeAnswer: () => sleep(holdMs) });
    world = await faultWorld({ databaseUrl: database.url!, relayUrl: sink.url });
  });
  afterEach(async () => {
    for (const spawned of started.splice(0)) {
      if (spawned.child.exitCode === null && spawned.child.signalCode === null) process.kill(-spawned.child.pid!, 'SIGKILL');
      await spawned.exited;
    }
  });
  afterAll(async () => {
    await world?.close();
    await sink?.close();
    await database?.drop();
  });

  /** `npm start` in a process group of its own, as a terminal or a supervisor runs it. */
  async function npmStart(env: Record<string, string> = {}): Promise<Spawned & { api: string; bouncePort: number; signal(name: NodeJS.Signals): void }> {
    const bouncePort = await freePort();
    const spawned = spawnCaptured('npm', ['start'], { ...world.env, BOUNCE_SMTP_PORT: String(bouncePort), ...env }, { detached: true });
    const { child } = spawned;
    started.push(spawned);
    await waitForOutput(spawned, /Bounce receiver listening/, 60_000);
    return { ...spawned, api: `http://127.0.0.1:${listeningPort(spawned)}/api`, bouncePort, signal: (name) => process.kill(-child.pid!, name) };
  }

  const send = (api: string, to: string) => postJson(`${api}/emails`, world.apiKey, { from: world.from, to, subject: 'Receipt', text: 'Thanks' });
  const rowOf = async (id: string) =>
    (await queryRows<{ status: string; claimed_by: string | null }>(world.runtime.deps.db, sql`select status, claimed_by from emails where id = ${id}::uuid`))[0]!;
  const copiesOf = (id: string) => sink.messages.filter((message) => message.emailId === id).length;

  it('finishes the message on the wire, takes no new connections meanwhile, leaves nothing claimed and exits 0', async () => {
    const service = await npmStart();
    const worker = workerIdOf(service)!;
    holdMs = 2_000;
    const email = await send(service.api, 'inflight@example.net');
    expect(email.status).toBe(200);
    await sink.waitFor(sink.messages.length + 1, 10_000);
    const signalled = performance.now();
    service.signal('SIGTERM');
    await sleep(300);
    // Still finishing the message, and already closed to new HTTP and SMTP connections.
    expect(service.child.exitCode).toBeNull();
    expect(await refused(Number(new URL(service.api).port))).toBe(true);
    expect(await refused(service.bouncePort)).toBe(true);
    expect(await service.exited).toBe(0);
    const took = performance.now() - signalled;
    expect(took).toBeGreaterThan(1_500);
    expect(took).toBeLessThan(10_000);
    expect(await rowOf(email.body.id)).toEqual({ status: 'delivered', claimed_by: null });
    expect(copiesOf(email.body.id)).toBe(1);
    // One stop, although the signal reached the server more than once.
    expect(service.output().match(/SIGTERM: stopping/g)).toHaveLength(1);
    expect(service.output()).toMatch(/"cutOff":false,"msg":"stopped"/);
    const left = await queryRows<{ n: number }>(world.runtime.deps.db, sql`select count(*)::int as n from workers where id = ${worker}::uuid`);
    expect(left[0]!.n).toBe(0);
    console.log(`graceful stop: exit 0 ${Math.round(took)} ms after SIGTERM, the message on the wire (held 2,000 ms) finished first`);
  }, 120_000);

  it('cuts off work still running at SHUTDOWN_GRACE_MS, exits 0, and the next process takes it over at once', async () => {
    const service = await npmStart({ SHUTDOWN_GRACE_MS: '1000' });
    holdMs = 4_000;
    const email = await send(service.api, 'cutoff@example.net');
    await sink.waitFor(sink.messages.length + 1, 10_000);
    service.signal('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/"cutOff":true,"msg":"stopped"/);
    expect((await rowOf(email.body.id)).claimed_by).toBe(workerIdOf(service));
    holdMs = 0;
    const next = await npmStart();
    const restarted = performance.now();
    for (let waited = 0; (await rowOf(email.body.id)).status !== 'delivered'; waited += 100) {
      expect(waited).toBeLessThan(10_000);
      await sleep(100);
    }
    const takenOver = performance.now() - restarted;
    // The copy on the wire when the process stopped, and the one the next process sent.
    expect(copiesOf(email.body.id)).toBe(2);
    expect((await rowOf(email.body.id)).claimed_by).toBeNull();
    next.signal('SIGTERM');
    expect(await next.exited).toBe(0);
    console.log(`cut off at the deadline: taken over and delivered ${Math.round(takenOver)} ms after the next start`);
  }, 120_000);

  it('exits at once on a second signal', async () => {
    const service = await npmStart();
    holdMs = 30_000;
    await send(service.api, 'stuck@example.net');
    await sink.waitFor(sink.messages.length + 1, 10_000);
    service.signal('SIGTERM');
    await sleep(1_000);
    expect(service.child.exitCode).toBeNull();
    const again = performance.now();
    service.signal('SIGTERM');
    const code = await service.exited;
    const took = performance.now() - again;
    expect(code).not.toBe(0);
    expect(took).toBeLessThan(1_500);
    expect(service.output()).toMatch(/SIGTERM again: exiting now/);
    holdMs = 0;
    console.log(`second SIGTERM: gone ${Math.round(took)} ms later (npm exit ${code})`);
  }, 120_000);
});
