import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '@/db/client';
import { systemEmails, workers } from '@/db/schema';
import { apiKeyRevokedEmail } from '@/emails/api-key-revoked';
import { silentLog } from '@/server/log';
import { claimable, claimedBy, unclaimedBy } from '@/server/services/shared/claims/lease';
import { WorkerClaims } from '@/server/services/shared/claims/worker';
import { readDueWork } from '@/server/services/health/due-work';
import { enqueueSystemEmail, sweepSystemEmails } from '@/server/services/system-mail/queue';
import { startTestApp, type TestApp } from './support/app';

/*
 * The one claim-and-lease mechanism on the real database (PGlite, or Postgres with DATABASE_URL),
 * through the system-mail outbox, the simplest table of due work: who may take a claimed row, and
 * when.
 */

let app: TestApp;
let database: Database;
const others: WorkerClaims[] = [];
let sent: string[] = [];
let slowSend: (() => Promise<void>) | null = null;

beforeAll(async () => {
  app = await startTestApp({
    systemMailer: {
      async send(message) {
        await slowSend?.();
        const recipient = message.recipients[0]!.address;
        sent.push(recipient);
        return { recipient, outcome: 'delivered', response: `250 queued as ${sent.length}` };
      },
    },
  });
  database = app.runtime.database;
});
afterAll(async () => {
  for (const worker of others) await worker.stop();
  await app.close();
});
beforeEach(async () => {
  await app.reset();
  sent = [];
  slowSend = null;
});

/** Another process's worker on the same database (its own lock connection on Postgres). */
async function otherWorker(): Promise<WorkerClaims> {
  const worker = new WorkerClaims({ db: database.db, log: silentLog, openSession: database.openSession, exclusive: false, roles: ['worker'] });
  await worker.start();
  others.push(worker);
  return worker;
}

const queue = async (to = 'owner@acme.test') =>
  enqueueSystemEmail(app.runtime.deps.db, app.runtime.deps, {
    organizationId: null,
    kind: 'api_key_revoked',
    to,
    email: apiKeyRevokedEmail({ organizationName: 'Acme', keyName: 'k', tokenStart: 'eu_live_abcd', revokedAt: app.clock.now() }),
  });

/** Claims the row for `worker` if the mechanism lets it: what every claim statement does. */
async function claim(worker: WorkerClaims, id: string): Promise<boolean> {
  const rows = await database.db
    .update(systemEmails)
    .set(claimedBy(worker.claimant))
    .where(sql`${systemEmails.id} = ${id} and ${claimable(systemEmails, worker.claimant)}`)
    .returning({ id: systemEmails.id });
  return rows.length === 1;
}

const holderOf = async (id: string) => (await database.db.select({ by: systemEmails.claimedBy }).from(systemEmails).where(eq(systemEmails.id, id)))[0]!.by;
const expireLease = (id: string) => database.db.execute(sql`update ${systemEmails} set claimed_until = now() - interval '1 hour' where id = ${id}`);
// A lease that ran out counts from the database's start at the earliest (a restart gives holders a whole lease).
const startedLongAgo = async () =>
  (await queryRows<{ ok: boolean }>(database.db, sql`select pg_postmaster_start_time() < now() - interval '30 seconds' as ok`))[0]!.ok;

describe('claims', () => {
  it('keep a row to its holder while it is alive, and give it to another the moment the holder is seen gone', async () => {
    const id = await queue();
    const holder = await otherWorker();
    const me = app.runtime.deps.claims;
    expect(await claim(holder, id)).toBe(true);
    expect(await claim(me, id)).toBe(false);
    // The holder's process dies: its worker row goes (reaped, or it left), and its rows are free at once.
    await database.db.delete(workers).where(eq(workers.id, holder.id));
    expect(await claim(me, id)).toBe(true);
    expect(await holderOf(id)).toBe(me.id);
  });

  it('are taken over when the lease ran out, but never by a worker that lately could not reach the database', async () => {
    const id = await queue();
    const holder = await otherWorker();
    const me = await otherWorker();
    expect(await claim(holder, id)).toBe(true);
    await expireLease(id);
    if (await startedLongAgo()) {
      me.noteFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      expect(me.takeover).toBe(false);
      expect(await claim(me, id)).toBe(false);
      const fresh = await otherWorker();
      expect(await claim(fresh, id)).toBe(true);
    } else {
      // PGlite started seconds ago: a lease that ran out before counts from its start.
      expect(await claim(me, id)).toBe(false);
    }
  });

  it('are never taken back by their own holder on expiry, and a late holder does not erase a new holder’s claim', async () => {
    const id = await queue();
    const first = await otherWorker();
    const second = await otherWorker();
    expect(await claim(first, id)).toBe(true);
    await expireLease(id);
    expect(await claim(first, id)).toBe(false);
    await database.db.delete(workers).where(eq(workers.id, first.id));
    expect(await claim(second, id)).toBe(true);
    // The first finishes late: its write ends only its own claim.
    await database.db.update(systemEmails).set(unclaimedBy(systemEmails, first.id)).where(eq(systemEmails.id, id));
    expect(await holderOf(id)).toBe(second.id);
  });

  it('are renewed while the work is alive and handed back at once when released', async () => {
    const id = await queue();
    const worker = await otherWorker();
    expect(await claim(worker, id)).toBe(true);
    worker.hold(systemEmails, [id]);
    await database.db.execute(sql`update ${systemEmails} set claimed_until = now() + interval '1 second' where id = ${id}`);
    await (worker as unknown as { renew(): Promise<void> }).renew();
    const [{ left }] = (await queryRows<{ left: number }>(database.db, sql`select extract(epoch from claimed_until - now())::float as left from ${systemEmails} where id = ${id}`)) as [{ left: number }];
    expect(left).toBeGreaterThan(25);
    await worker.release(systemEmails, [id]);
    expect(await holderOf(id)).toBeNull();
    expect(worker.heldCount()).toBe(0);
  });

  it('of a stopping process: what it has not started goes back, unsent', async () => {
    for (const to of ['a@acme.test', 'b@acme.test', 'c@acme.test']) await queue(to);
    let release!: () => void;
    const firstStarted = new Promise<void>((resolve) => {
      slowSend = () => {
        slowSend = null;
        resolve();
        return new Promise<void>((done) => (release = done));
      };
    });
    const stopping = new WorkerClaims({ db: database.db, log: silentLog, openSession: database.openSession, exclusive: false, roles: ['worker'] });
    await stopping.start();
    others.push(stopping);
    const sweep = sweepSystemEmails({ ...app.runtime.deps, claims: stopping });
    await firstStarted;
    stopping.beginStopping(performance.now() + 10_000);
    release();
    expect(await sweep).toBe(1);
    const rows = await database.db.select({ to: systemEmails.toAddress, status: systemEmails.status, by: systemEmails.claimedBy }).from(systemEmails);
    expect(rows.filter((row) => row.status === 'sent').map((row) => row.to)).toEqual(sent);
    expect(sent).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'sending')).toHaveLength(2);
    expect(rows.every((row) => row.by === null)).toBe(true);
    // /metrics counts them as due work: the sweep's own condition, so the same rows it takes next.
    expect((await readDueWork(app.runtime.deps)).find((work) => work.kind === 'system_emails')?.due).toBe(2);
    // And the next worker sends them.
    expect(await sweepSystemEmails(app.runtime.deps)).toBe(2);
  });
});

describe.runIf(process.env.DATABASE_URL)('workers on Postgres', () => {
  it('are reaped once their lock connection is gone (the process died), and their claims are free', async () => {
    const id = await queue();
    const dead = new WorkerClaims({ db: database.db, log: silentLog, openSession: database.openSession, exclusive: false, roles: ['worker'] });
    await dead.start();
    others.push(dead);
    expect(await claim(dead, id)).toBe(true);
    // kill -9: the lock connection closes, the worker row stays behind.
    await (dead as unknown as { session: { close(): Promise<void> } }).session.close();
    expect(await claim(app.runtime.deps.claims, id)).toBe(false);
    const next = await otherWorker();
    const rows = await database.db.select().from(workers).where(eq(workers.id, dead.id));
    expect(rows).toHaveLength(0);
    expect(await claim(next, id)).toBe(true);
  });

  it('are not reaped while their process holds its lock', async () => {
    const alive = await otherWorker();
    await otherWorker();
    expect(await database.db.select().from(workers).where(eq(workers.id, alive.id))).toHaveLength(1);
  });
});

describe('an outcome that already left the process', () => {
  it('is written again after a deadlock or while the database is away, and a bug is thrown at once', async () => {
    const worker = await otherWorker();
    const failures = [Object.assign(new Error('deadlock detected'), { code: '40P01' }), Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })];
    let tries = 0;
    const written = await worker.untilRecorded(async () => {
      tries += 1;
      const failure = failures.shift();
      if (failure) throw new Error('Failed query: update …', { cause: failure });
      return 'written';
    });
    expect(written).toBe('written');
    expect(tries).toBe(3);
    const bug = Object.assign(new Error('null value in column "status" violates not-null constraint'), { code: '23502' });
    await expect(worker.untilRecorded(() => Promise.reject(bug))).rejects.toBe(bug);
  });
});
