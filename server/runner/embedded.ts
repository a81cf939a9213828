import { withoutQueryBound } from '@/db/deadline';
import { isDatabaseUnavailable } from '@/db/unavailable';
import type { Deps } from '../deps';
import type { JobKind, Jobs } from '../jobs/jobs';
import { silentLog, type Log } from '../log';
import type { Sweep } from './sweeps';

/** After a failed sweep: 1 s, 2 s, then every 4 s, so a database back from an outage is seen within seconds, not hammered meanwhile. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_CAP_MS = 4_000;

interface Loop {
  sweep: Sweep;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  again: boolean;
  /** Failures in a row: the back-off, and whether the outage was already logged. */
  failures: number;
}

const backoffMs = (failures: number) => Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** (failures - 1));

/**
 * The in-process driver used when no Inngest is configured: a loop per sweep over the database.
 * A wake-up runs the sweep now instead of at its next tick; the rows decide what is done. A sweep
 * that fails backs off; one that finds the database away says so once per outage.
 */
export class EmbeddedRunner implements Jobs {
  private readonly loops = new Map<JobKind, Loop>();
  private stopped = true;

  constructor(
    private readonly getDeps: () => Deps,
    sweeps: Sweep[],
    private readonly log: Log = silentLog,
  ) {
    for (const sweep of sweeps) this.loops.set(sweep.kind, { sweep, timer: null, running: null, again: false, failures: 0 });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const loop of this.loops.values()) this.run(loop);
  }

  wake(kind: JobKind, _id?: string | string[]): void {
    const loop = this.loops.get(kind);
    if (!loop || this.stopped) return;
    if (loop.running) {
      loop.again = true;
      return;
    }
    this.run(loop);
  }

  /** Stops scheduling and waits for the sweeps in flight (they stop claiming once the worker is stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const loop of this.loops.values()) if (loop.timer) clearTimeout(loop.timer);
    await Promise.all([...this.loops.values()].map((loop) => loop.running));
  }

  private run(loop: Loop): void {
    if (loop.timer) clearTimeout(loop.timer);
    loop.timer = null;
    // A wake-up comes from a request: its sweep must not inherit the request's query bound.
    loop.running = withoutQueryBound(() => this.sweepUntilDone(loop)).finally(() => {
      loop.running = null;
      if (!this.stopped) loop.timer = setTimeout(() => this.run(loop), loop.failures > 0 ? backoffMs(loop.failures) : loop.sweep.intervalMs);
    });
  }

  private async sweepUntilDone(loop: Loop): Promise<void> {
    do {
      loop.again = false;
      const started = performance.now();
      const durationMs = () => Math.round(performance.now() - started);
      try {
        const result = await loop.sweep.run(this.getDeps());
        if (loop.failures > 0) this.log.info({ sweep: loop.sweep.kind, failures: loop.failures }, 'sweep runs again');
        loop.failures = 0;
        if (loop.sweep.again?.(result)) loop.again = true;
        // A sweep that found nothing says nothing: an idle poll every second is not news.
        const summary = loop.sweep.summary(result);
        if (summary) this.log.info({ sweep: loop.sweep.kind, ...summary, durationMs: durationMs() }, 'sweep done');
      } catch (error) {
        loop.failures += 1;
        loop.again = false;
        this.getDeps().claims.noteFailure(error);
        if (!isDatabaseUnavailable(error)) this.log.error({ sweep: loop.sweep.kind, err: error, durationMs: durationMs() }, 'sweep failed');
        else if (loop.failures === 1) this.log.warn({ sweep: loop.sweep.kind, err: error }, 'sweep paused: the database is not reachable; trying again every few seconds');
      }
    } while (loop.again && !this.stopped);
  }
}
