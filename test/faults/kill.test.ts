import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { DISPATCH_CONCURRENCY } from '@/server/services/emails/pipeline/dispatcher';
import { buildServerBundle } from '../support/built-server';
import { openTestDatabase } from '../support/database';
import { faultWorld, listeningPort, postJson, workerIdOf, type FaultWorld } from '../support/fault-world';
import { waitForOutput, type Spawned } from '../support/process';
import { startSmtpSink } from '../support/smtp';

/*
 * kill -9 of worker processes, again and again, while 2,000 accepted emails are delivered to a
 * loopback sink: every email arrives, each one a killed worker held arrives within 60 s of the
 * kill, and the copies sent twice (on the wire, or answered but not yet recorded, at the kill)
 * are counted and bounded. Postgres only: several processes share the database.
 */

const EMAILS = 2_000;
const KILL_EVERY_MS = 2_000;
/** Each message waits this long at the sink before its 250: deliveries last long enough to be cut. */
const SINK_DELAY_MS = 60;
/** What one process can have in flight: its dispatch slots. */
const IN_FLIGHT_PER_PROCESS = DISPATCH_CONCURRENCY;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.DATABASE_URL)('kill -9 of workers while 2,000 emails are delivered', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let world: FaultWorld;
  let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
  const processes: Spawned[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    sink = await startSmtpSink({ beforeAnswer: () => sleep(SINK_DELAY_MS) });
    world = await faultWorld({ databaseUrl: database.url!, relayUrl: sink.url });
    bundle = await buildServerBundle('kill');
  });
  afterAll(async () => {
    for (const spawned of processes) spawned.child.kill('SIGKILL');
    await Promise.all(processes.map((spawned) => spawned.exited));
    bundle?.remove();
    await world?.close();
    await sink?.close();
    await database?.drop();
  });

  const start = async (roles: string, ready: RegExp) => {
    const spawned = bundle.run('main', { ...world.env, ROLES: roles });
    processes.push(spawned);
    await waitForOutput(spawned, ready, 30_000);
    return spawned;
  };
  const startWorker = () => start('worker', /as worker [0-9a-f-]{36}/);

  it('delivers every email, each interrupted one within 60 s of its kill, with duplicates at most kills × in-flight', async () => {
    const web = await start('web', /listening on port \d+/);
    const api = `http://127.0.0.1:${listeningPort(web)}/api`;
    const accepted: string[] = [];
    for (let batch = 0; batch < EMAILS / 100; batch += 1) {
      const items = Array.from({ length: 100 }, (_, i) => ({ from: world.from, to: `reader${batch * 100 + i}@example.net`, subject: 'Receipt', text: 'Thanks' }));
      const response = await postJson(`${api}/emails/batch`, world.apiKey, items);
      expect(response.status).toBe(200);
      accepted.push(...(response.body.data as Array<{ id: string }>).map((item) => item.id));
    }
    expect(new Set(accepted).size).toBe(EMAILS);

    const db = world.runtime.deps.db;
    const delivered = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from emails where status = 'delivered'`))[0]!.n;
    const workers = [await startWorker(), await startWorker()];
    const kills: Array<{ at: number; worker: string; held: string[]; around: string[] }> = [];
    const deadline = Date.now() + 150_000;
    let victim = 0;
    while ((await delivered()) < EMAILS && Date.now() < deadline) {
      await sleep(KILL_EVERY_MS);
      if ((await delivered()) >= EMAILS) break;
      const target = workers[victim]!;
      const worker = workerIdOf(target)!;
      const heldBy = async () => (await queryRows<{ id: string }>(db, sql`select id from emails where claimed_by = ${worker}::uuid`)).map((row) => row.id);
      const before = await heldBy();
      target.child.kill('SIGKILL');
      const at = Date.now();
      await target.exited;
      // What the dead process held when it died: claimed and not finished (read at once, before a takeover).
      const held = await heldBy();
      kills.push({ at, worker, held, around: [...before, ...held] });
      workers[victim] = await startWorker();
      victim = 1 - victim;
    }
    expect(await delivered()).toBe(EMAILS);
    await sleep(500);

    const arrivals = new Map<string, number[]>();
    for (const message of sink.messages) arrivals.set(message.emailId!, [...(arrivals.get(message.emailId!) ?? []), message.at]);
    expect([...arrivals.keys()].sort()).toEqual([...accepted].sort());
    const duplicates = sink.messages.length - EMAILS;
    // Every email a killed worker held arrives again after the kill, within 60 s of it.
    const recoveries: number[] = [];
    for (const kill of kills) {
      for (const id of kill.held) {
        const after = (arrivals.get(id) ?? []).filter((at) => at >= kill.at);
        expect(after.length, `email ${id} held by ${kill.worker} at its kill`).toBeGreaterThan(0);
        recoveries.push(Math.min(...after) - kill.at);
      }
    }
    const interrupted = kills.reduce((sum, kill) => sum + kill.held.length, 0);
    const slowest = Math.max(0, ...recoveries);
    console.log(
      `kill -9: ${kills.length} kills, ${interrupted} emails interrupted, recovery after a kill: median ${recoveries.sort((a, b) => a - b)[recoveries.length >> 1] ?? 0} ms, slowest ${slowest} ms; ${duplicates} duplicates (bound ${kills.length * IN_FLIGHT_PER_PROCESS})`,
    );
    expect(kills.length).toBeGreaterThanOrEqual(3);
    expect(interrupted).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(60_000);
    expect(duplicates).toBeGreaterThanOrEqual(0);
    expect(duplicates).toBeLessThanOrEqual(kills.length * IN_FLIGHT_PER_PROCESS);
    // Nothing is left claimed, and every copy that was sent twice was one a killed worker held.
    const stillClaimed = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from emails where claimed_by is not null`);
    expect(stillClaimed[0]!.n).toBe(0);
    const heldAtSomeKill = new Set(kills.flatMap((kill) => kill.around));
    for (const [id, times] of arrivals) if (times.length > 1) expect(heldAtSomeKill.has(id), `email ${id} arrived ${times.length} times`).toBe(true);
  }, 240_000);
});
