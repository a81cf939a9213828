import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, queryRows } from '@/db/client';
import { buildServerBundle } from '../support/built-server';
import { twoEmailRuns } from '../support/fault-automation';
import { faultWorld, type FaultWorld } from '../support/fault-world';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { waitForOutput, type Spawned } from '../support/process';
import { startSmtpSink } from '../support/smtp';

/*
 * The database goes away (a Postgres of the test's own, stopped with its connections cut, then
 * started again) while a worker process takes 150 automation runs through two emails and a change
 * of the contact: the worker survives, and once the database is back every run completes with each
 * of its emails stored exactly once. A step, or a crowd's steps, cut by the outage is rolled back
 * whole and taken again.
 */

const CONTACTS = 150;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.DATABASE_URL)('a database outage while 150 automation runs take their steps', () => {
  let cluster: PostgresCluster;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let world: FaultWorld;
  let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
  let worker: Spawned | undefined;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const database = await openDatabase({ url: cluster.url, poolSize: 1 });
    await migrate(database);
    await database.close();
    sink = await startSmtpSink();
    world = await faultWorld({ databaseUrl: cluster.url, relayUrl: sink.url });
    bundle = await buildServerBundle('automation-outage');
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await worker?.exited;
    bundle?.remove();
    await world?.close();
    await sink?.close();
    cluster?.destroy();
  });

  it('completes every run after the database comes back, each email stored once', { timeout: 240_000 }, async () => {
    const { deps } = world.runtime;
    const automationId = await twoEmailRuns(world, CONTACTS);

    const db = deps.db;
    const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db, query))[0]!.n;
    const finished = () => count(sql`select count(*)::int as n from automation_runs where status <> 'running'`);
    const stepsTaken = () => count(sql`select count(*)::int as n from automation_run_steps`);

    worker = bundle.run('main', { ...world.env, ROLES: 'worker' });
    await waitForOutput(worker, /as worker [0-9a-f-]{36}/, 30_000);
    // The outage comes once the runs are under way, before they are all done.
    const startedBy = Date.now() + 60_000;
    while ((await stepsTaken()) === 0 && Date.now() < startedBy) await sleep(20);
    const finishedBefore = await finished();
    cluster.stop();
    await sleep(3_000);
    expect(worker.child.exitCode, worker.output().slice(-4000)).toBeNull();
    cluster.start();

    const deadline = Date.now() + 150_000;
    let done = 0;
    while (Date.now() < deadline) {
      done = await finished().catch(() => 0);
      if (done >= CONTACTS) break;
      await sleep(250);
    }
    expect(finishedBefore).toBeLessThan(CONTACTS);
    expect(worker.child.exitCode).toBeNull();
    const statuses = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from automation_runs where automation_id = ${automationId}::uuid group by status`);
    expect(statuses).toEqual([{ status: 'completed', n: CONTACTS }]);
    expect(await queryRows(db, sql`select run_id from automation_emails group by run_id, step_key having count(*) > 1`)).toEqual([]);
    expect(await count(sql`select count(*)::int as n from emails`)).toBe(2 * CONTACTS);
    expect(await queryRows(db, sql`select "to" from emails group by "to" having count(*) <> 2`)).toEqual([]);
    expect(await count(sql`select count(*)::int as n from contacts where last_name = 'Greeted'`)).toBe(CONTACTS);
    console.log(`automation outage: ${finishedBefore} of ${CONTACTS} runs finished when the database stopped; all completed after, ${2 * CONTACTS} emails stored once each`);
  });
});
