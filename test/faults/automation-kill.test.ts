import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { buildServerBundle } from '../support/built-server';
import { twoEmailRuns } from '../support/fault-automation';
import { openTestDatabase } from '../support/database';
import { faultWorld, workerIdOf, type FaultWorld } from '../support/fault-world';
import { waitForOutput, type Spawned } from '../support/process';
import { startSmtpSink } from '../support/smtp';

/*
 * kill -9 of the worker processes, again and again, while 400 automation runs take their steps
 * (an email, a change of the contact, a second email): every run completes, and every email a run
 * sends is stored exactly once (a step's work and its move are one transaction: a step cut by a
 * kill is taken again whole, never twice). Postgres only: several processes share the database.
 */

const CONTACTS = 400;
const KILL_EVERY_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.DATABASE_URL)('kill -9 of workers while 400 automation runs take their steps', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let world: FaultWorld;
  let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
  const processes: Spawned[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    sink = await startSmtpSink();
    world = await faultWorld({ databaseUrl: database.url!, relayUrl: sink.url });
    bundle = await buildServerBundle('automation-kill');
  });
  afterAll(async () => {
    for (const spawned of processes) spawned.child.kill('SIGKILL');
    await Promise.all(processes.map((spawned) => spawned.exited));
    bundle?.remove();
    await world?.close();
    await sink?.close();
    await database?.drop();
  });

  const startWorker = async () => {
    const spawned = bundle.run('main', { ...world.env, ROLES: 'worker' });
    processes.push(spawned);
    await waitForOutput(spawned, /as worker [0-9a-f-]{36}/, 30_000);
    return spawned;
  };

  it('completes every run and stores each of its emails once', { timeout: 240_000 }, async () => {
    const { deps } = world.runtime;
    const automationId = await twoEmailRuns(world, CONTACTS);

    const db = deps.db;
    const finished = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from automation_runs where status <> 'running'`))[0]!.n;
    const workers = [await startWorker(), await startWorker()];
    let kills = 0;
    let cutMidRun = 0;
    const deadline = Date.now() + 150_000;
    let victim = 0;
    while ((await finished()) < CONTACTS && Date.now() < deadline) {
      await sleep(KILL_EVERY_MS);
      const done = await finished();
      if (process.env.FAULT_TRACE) console.log(`finished ${done}`);
      if (done >= CONTACTS) break;
      const target = workers[victim]!;
      const worker = workerIdOf(target)!;
      target.child.kill('SIGKILL');
      await target.exited;
      kills += 1;
      cutMidRun += (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from automation_runs where claimed_by = ${worker}::uuid`))[0]!.n;
      workers[victim] = await startWorker();
      victim = 1 - victim;
    }
    expect(kills).toBeGreaterThanOrEqual(2);
    const statuses = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from automation_runs where automation_id = ${automationId}::uuid group by status`);
    expect(statuses).toEqual([{ status: 'completed', n: CONTACTS }]);
    // Each run's two emails, stored once each: by the run and step, and in the emails table by recipient.
    const perStep = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from automation_emails group by run_id, step_key having count(*) > 1`);
    expect(perStep).toEqual([]);
    const [{ stored } = { stored: 0 }] = await queryRows<{ stored: number }>(db, sql`select count(*)::int as stored from emails`);
    expect(stored).toBe(2 * CONTACTS);
    const perRecipient = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from emails group by "to" having count(*) <> 2`);
    expect(perRecipient).toEqual([]);
    const greeted = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from contacts where last_name = 'Greeted'`);
    expect(greeted[0]!.n).toBe(CONTACTS);
    console.log(`automation kill -9: ${kills} kills, ${cutMidRun} runs held by a killed worker; ${CONTACTS} runs completed, ${stored} emails stored`);
  });
});
