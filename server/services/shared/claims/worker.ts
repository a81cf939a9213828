import { randomInt } from 'node:crypto';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db, type SessionConnection } from '@/db/client';
import { column, tableName } from '@/db/raw-sql';
import { workers } from '@/db/schema';
import { isDatabaseUnavailable, isTransientConflict } from '@/db/unavailable';
import { newId } from '../../../ids';
import type { Log } from '../../../log';
import { LEASE_MS, leaseInterval, RENEW_EVERY_MS, RETRY_EVERY_MS, type ClaimTable } from './lease';

/** Workers' session advisory locks live in their own two-int space, apart from the migrations' lock. */
const LOCK_SPACE = 727_002;
/** A worker row nobody renewed for this long is litter from a process that died unseen. */
const FORGET_AFTER = sql.raw(`interval '1 day'`);

interface WorkerOptions {
  db: Db;
  log: Log;
  /** Postgres: a dedicated connection for the worker's lock. PGlite has none: one process owns it. */
  openSession?: () => SessionConnection;
  /** This process alone uses the database (PGlite under the DATA_DIR lock): every other worker is gone. */
  exclusive: boolean;
  /** What this process runs, for the worker's name. */
  roles: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The write of an outcome was given up: the process is stopping and the database still does not answer. */
export class OutcomeNotRecorded extends Error {
  constructor(cause: unknown) {
    super('the outcome could not be recorded before the process stopped', { cause });
    this.name = 'OutcomeNotRecorded';
  }
}

/**
 * This process as a holder of claims. It registers a worker row, holds a session advisory lock on
 * Postgres so others see it gone the moment its connection drops (kill -9), renews the leases of
 * the work in flight, hands back what it will not do, and reaps workers that are gone, so their
 * rows are taken over at once instead of after their leases.
 */
export class WorkerClaims {
  readonly id = newId();
  private readonly held = new Map<ClaimTable, Set<string>>();
  private readonly handBack = new Map<ClaimTable, Set<string>>();
  private readonly lockKey = randomInt(1, 2 ** 31 - 1);
  private session: SessionConnection | null = null;
  private sessionPid: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private lastFailureAt = Number.NEGATIVE_INFINITY;
  private away = false;
  private started = false;
  private closed = false;
  private givingUpAt = Number.POSITIVE_INFINITY;
  private abandoned = false;

  constructor(private readonly options: WorkerOptions) {}

  /** This worker in a claim statement's terms, also the values of a prepared claim's `worker` and `takeover` placeholders. */
  get claimant(): { worker: string; takeover: boolean } {
    return { worker: this.id, takeover: this.takeover };
  }

  /**
   * Whether leases that ran out may be taken over. Not while this process has lately failed to
   * reach the database: the holders could not renew either, and are likely alive with work on the wire.
   */
  get takeover(): boolean {
    return performance.now() - this.lastFailureAt > LEASE_MS;
  }

  /** Set once the process is stopping: sweeps claim nothing new and hand back what they have not started. */
  get stopping(): boolean {
    return this.givingUpAt !== Number.POSITIVE_INFINITY;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.register();
    if (this.options.exclusive) {
      // Whoever held these rows before us is dead: nothing else may open this database.
      await this.options.db.delete(workers).where(sql`${workers.id} <> ${this.id}`);
    }
    await this.reap();
    this.schedule(RENEW_EVERY_MS);
  }

  /** Work now in flight under this worker's claim: its lease is renewed until it is finished or handed back. */
  hold(table: ClaimTable, ids: Iterable<string>): void {
    const set = this.held.get(table) ?? new Set<string>();
    const pending = this.handBack.get(table);
    for (const id of ids) {
      set.add(id);
      pending?.delete(id);
    }
    this.held.set(table, set);
  }

  /** The work's outcome was written with the claim cleared (or the claim is left to lapse): nothing more to renew. */
  finished(table: ClaimTable, ids: Iterable<string>): void {
    const set = this.held.get(table);
    for (const id of ids) set?.delete(id);
  }

  /**
   * Gives rows back unstarted (a failure before anything was sent, a shutdown, a busy destination),
   * so they are claimable again at once rather than after the lease. Written now when the database
   * answers, otherwise on the next beat that reaches it.
   */
  async release(table: ClaimTable, ids: Iterable<string>): Promise<void> {
    const list = [...ids];
    this.finished(table, list);
    if (list.length === 0) return;
    const set = this.handBack.get(table) ?? new Set<string>();
    for (const id of list) set.add(id);
    this.handBack.set(table, set);
    await this.flushHandBacks().catch((error: unknown) => this.noteFailure(error));
  }

  /** Anything that finds the database away says so: expired leases are then left alone for a while. */
  noteFailure(error: unknown): void {
    if (isDatabaseUnavailable(error)) this.lastFailureAt = performance.now();
  }

  /**
   * Writes what happened to work that already left the process (a message on the wire): such an
   * outcome must not be lost, or the work would be done twice. While the database is away (or the
   * write lost a deadlock) it is tried again every second, the claim still held, until it goes
   * through; only a stopping process past its deadline gives up (OutcomeNotRecorded). Any other
   * failure is thrown at once.
   */
  async untilRecorded<T>(write: () => Promise<T>): Promise<T> {
    for (let waited = false; ; waited = true) {
      if (this.abandoned) throw new OutcomeNotRecorded(new Error('the work was cut off by the shutdown deadline'));
      try {
        const result = await write();
        if (waited) this.options.log.info({ worker: this.id }, 'worker: an outcome held while the database was away is recorded');
        return result;
      } catch (error) {
        if (!isDatabaseUnavailable(error) && !isTransientConflict(error)) throw error;
        this.noteFailure(error);
        if (performance.now() >= this.givingUpAt) throw new OutcomeNotRecorded(error);
        if (!waited) this.options.log.warn({ worker: this.id, err: error }, 'worker: cannot record an outcome, the database is away; holding it and trying every second');
        await sleep(RETRY_EVERY_MS);
      }
    }
  }

  /** How many rows this worker holds now: what a shutdown waits for. */
  heldCount(): number {
    let count = 0;
    for (const set of this.held.values()) count += set.size;
    return count;
  }

  /** Resolves once nothing is held any more (work in flight finished or given back), or at `deadline` (performance.now()). */
  async drained(deadline: number): Promise<boolean> {
    while (this.heldCount() > 0) {
      if (performance.now() >= deadline) return false;
      await sleep(Math.min(50, deadline - performance.now()));
    }
    return true;
  }

  /** The shutdown has begun: claim nothing new, and give up waiting for the database at `deadline` (performance.now()). */
  beginStopping(deadline: number): void {
    this.givingUpAt = Math.min(this.givingUpAt, deadline);
  }

  /**
   * The shutdown deadline passed with work still running: what it still finds (a connection we
   * are about to close, answered as a failure) is not recorded. Its claims stay as they are, and
   * pass to the other workers the moment this one leaves, as after a crash.
   */
  abandonInFlight(): void {
    this.abandoned = true;
  }

  /**
   * Leaves: hands back what is queued to hand back, removes the worker row and closes the lock
   * connection, so the rows it still holds (work cut off by the shutdown deadline) are taken over
   * at once by the others.
   */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.beginStopping(performance.now());
    if (this.timer) clearTimeout(this.timer);
    await this.beating;
    if (this.started) {
      try {
        await this.flushHandBacks();
        await this.options.db.delete(workers).where(eq(workers.id, this.id));
      } catch (error) {
        this.options.log.warn({ worker: this.id, err: error }, 'worker: could not hand back its claims on the way out; they are taken over when seen gone');
      }
    }
    await this.session?.close().catch(() => undefined);
    this.session = null;
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.beating = this.beat().finally(() => (this.beating = null));
    }, ms);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      const relocked = await this.keepLock();
      const alive = await this.options.db
        .update(workers)
        .set({ heartbeatAt: sql`now()`, ...(relocked ? { lockedAt: sql`now()` } : {}) })
        .where(eq(workers.id, this.id))
        .returning({ id: workers.id });
      if (alive.length === 0) {
        this.options.log.warn({ worker: this.id }, 'worker: taken for gone by another process; registering again');
        await this.insertRow();
      }
      await this.renew();
      await this.flushHandBacks();
      await this.reap();
      if (this.away) this.options.log.info({ worker: this.id }, 'worker: the database answers again');
      this.away = false;
    } catch (error) {
      this.noteFailure(error);
      if (!isDatabaseUnavailable(error)) this.options.log.warn({ worker: this.id, err: error }, 'worker: heartbeat failed; retrying in a second');
      else if (!this.away) this.options.log.warn({ worker: this.id, err: error }, 'worker: cannot reach the database; retrying every second');
      this.away = true;
    } finally {
      this.schedule(this.away ? RETRY_EVERY_MS : RENEW_EVERY_MS);
    }
  }

  private async register(): Promise<void> {
    await this.keepLock();
    await this.insertRow();
  }

  private async insertRow(): Promise<void> {
    const name = `${os.hostname()}:${process.pid} ${this.options.roles.join(',')}`;
    await this.options.db
      .insert(workers)
      .values({ id: this.id, name, lockKey: this.lockKey, lockedAt: this.sessionPid ? sql`now()` : null, startedAt: sql`now()`, heartbeatAt: sql`now()` })
      .onConflictDoNothing();
  }

  /**
   * Holds the session lock on a connection of its own. When that connection was replaced (the
   * database restarted, the network broke), the lock went with it: take it again. Answers whether
   * it was (re)taken now.
   */
  private async keepLock(): Promise<boolean> {
    if (!this.options.openSession) return false;
    this.session ??= this.options.openSession();
    const [{ pid }] = (await this.session.query<{ pid: number }>('select pg_backend_pid() as pid')) as [{ pid: number }];
    if (pid === this.sessionPid) return false;
    const [{ locked }] = (await this.session.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [LOCK_SPACE, this.lockKey])) as [{ locked: boolean }];
    // Held elsewhere: an old connection of ours the server has not noticed is dead. Try next beat.
    if (!locked) return false;
    this.sessionPid = pid;
    return true;
  }

  private async renew(): Promise<void> {
    for (const [table, ids] of this.held) {
      if (ids.size === 0) continue;
      // SKIP LOCKED: a row locked now is having its outcome written; waiting for it could deadlock
      // with that write (both lock several rows), and it needs no renewal anyway.
      const rows = await queryRows<{ id: string }>(
        this.options.db,
        sql`update ${table} set ${sql.identifier(table.claimedUntil.name)} = now() + ${leaseInterval}
          where ${table.id} in (select ${table.id} from ${table} where ${table.id} = any(${sql.param([...ids])}::uuid[]) and ${table.claimedBy} = ${this.id}::uuid
            for update skip locked)
          returning ${table.id} as id`,
      );
      const kept = new Set(rows.map((row) => row.id));
      // Rows finished or released meanwhile are not lost; rows another worker now holds are.
      const lost = [...ids].filter((id) => !kept.has(id));
      if (lost.length === 0) continue;
      const stillHeld = lost.filter((id) => ids.has(id));
      if (stillHeld.length === 0) continue;
      const taken = await queryRows<{ id: string }>(
        this.options.db,
        sql`select ${table.id} as id from ${table} where ${table.id} = any(${sql.param(stillHeld)}::uuid[]) and ${table.claimedBy} is not null and ${table.claimedBy} <> ${this.id}::uuid`,
      );
      if (taken.length > 0) {
        this.options.log.warn({ worker: this.id, ids: taken.map((row) => row.id) }, 'worker: claims taken over by another worker while still in flight here');
        for (const row of taken) ids.delete(row.id);
      }
    }
  }

  private async flushHandBacks(): Promise<void> {
    for (const [table, ids] of this.handBack) {
      if (ids.size === 0) continue;
      // Taken out before the write: a row claimed again meanwhile must not be handed back by a later flush.
      const list = [...ids];
      ids.clear();
      try {
        await this.options.db.execute(
          sql`update ${table} set ${sql.identifier(table.claimedBy.name)} = null, ${sql.identifier(table.claimedUntil.name)} = null
            where ${table.id} = any(${sql.param(list)}::uuid[]) and ${table.claimedBy} = ${this.id}::uuid`,
        );
      } catch (error) {
        for (const id of list) ids.add(id);
        throw error;
      }
    }
  }

  /**
   * Removes the workers that are gone: on Postgres, one whose lock nobody holds any more (its
   * connection closed: the process died); a lock taken before the database last started proves
   * nothing, so such a worker gets the time to take it again. And litter nobody renewed for a day.
   */
  private async reap(): Promise<void> {
    const gone = await queryRows<{ id: string }>(
      this.options.db,
      sql`delete from ${tableName(workers, 'w')} where ${column(workers, 'id', 'w')} <> ${this.id}::uuid and (
        case when ${column(workers, 'lockedAt', 'w')} > pg_postmaster_start_time()
          then pg_try_advisory_xact_lock(${LOCK_SPACE}, ${column(workers, 'lockKey', 'w')}) else false end
        or ${column(workers, 'heartbeatAt', 'w')} < now() - ${FORGET_AFTER})
        returning ${column(workers, 'id', 'w')} as id`,
    );
    if (gone.length > 0) this.options.log.info({ workers: gone.map((row) => row.id) }, 'worker: reaped workers that are gone; their claims are free');
  }
}
