import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { testClock } from '@/db/schema';
import type { Clock } from './clock';
import type { Log } from './log';

/*
 * TEST_CLOCK=on, for black-box tests and operators rehearsing a month in minutes: every process on
 * the database reads real time plus one offset kept in the single row of `test_clock`, so
 * `clock:set` and `clock:advance` move the time of all of them. Each process polls the row; within
 * a second of a change every process has it. No row means no offset.
 */

/** How often a process reads the shared offset: a change reaches every process within a second. */
export const TEST_CLOCK_POLL_MS = 500;

/** The shared offset in milliseconds (0 before anyone moved the clock). */
export async function readTestClockOffset(db: Db): Promise<number> {
  const [row] = await db.select({ offsetMs: testClock.offsetMs }).from(testClock).where(eq(testClock.id, 1));
  return row ? Number(row.offsetMs) : 0;
}

/**
 * Puts the shared time at `at`: the offset is taken against this process's real time, which every
 * process on one machine (the tests') shares. Any time is allowed, earlier ones too.
 */
export async function setTestClockTo(db: Db, at: Date): Promise<number> {
  const offsetMs = at.getTime() - Date.now();
  const [row] = await db
    .insert(testClock)
    .values({ id: 1, offsetMs })
    .onConflictDoUpdate({ target: testClock.id, set: { offsetMs } })
    .returning({ offsetMs: testClock.offsetMs });
  return Number(row!.offsetMs);
}

/** Moves the shared time by `byMs` in one statement, so two advances at once both count. */
export async function advanceTestClock(db: Db, byMs: number): Promise<number> {
  const [row] = await db
    .insert(testClock)
    .values({ id: 1, offsetMs: byMs })
    .onConflictDoUpdate({ target: testClock.id, set: { offsetMs: sql`${testClock.offsetMs} + excluded.offset_ms` } })
    .returning({ offsetMs: testClock.offsetMs });
  return Number(row!.offsetMs);
}

/**
 * The clock of a process under TEST_CLOCK=on: now() stays synchronous and cheap (real time plus
 * the last offset read); a timer refreshes the offset. A failed read keeps the last offset, so a
 * database outage does not send time back to the present, and is logged once per outage.
 */
export class SharedTestClock implements Clock {
  private offsetMs = 0;
  /** Bumped by adopt(): a read that started before it is stale and must not overwrite it. */
  private generation = 0;
  private failing = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
    private readonly pollEveryMs = TEST_CLOCK_POLL_MS,
  ) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** The offset this process currently adds to real time. */
  currentOffsetMs(): number {
    return this.offsetMs;
  }

  /** Reads the offset once before anything asks the time, then keeps reading it. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
    this.schedule();
  }

  /** Reads the shared offset now. */
  refresh(): Promise<void> {
    this.inFlight ??= this.read().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** Takes an offset this process just wrote, so the process that moved the clock sees it at once. */
  adopt(offsetMs: number): void {
    this.generation += 1;
    this.offsetMs = offsetMs;
  }

  /** Stops polling and waits for a read in flight, so it does not run into a closing database. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private schedule(): void {
    if (this.stopped) return;
    // A chain of timeouts rather than an interval: reads never overlap on a slow database.
    this.timer = setTimeout(() => {
      void this.refresh().finally(() => this.schedule());
    }, this.pollEveryMs);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    const generation = this.generation;
    try {
      const offsetMs = await readTestClockOffset(this.db);
      if (generation === this.generation) this.offsetMs = offsetMs;
      if (this.failing) {
        this.failing = false;
        this.log.info({ offsetMs }, 'TEST_CLOCK: the shared offset is readable again');
      }
    } catch (error) {
      if (this.failing) return;
      this.failing = true;
      this.log.warn({ err: error, offsetMs: this.offsetMs }, 'TEST_CLOCK: cannot read the shared offset; keeping the last one until the database answers');
    }
  }
}
