import type { Deps } from '../deps';
import type { JobKind, Jobs } from '../jobs/jobs';
import { silentLog, type Log } from '../log';
import type { Sweep } from './sweeps';

interface Loop {
  sweep: Sweep;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  again: boolean;
}

/**
 * The in-process driver used when no Inngest is configured: a loop per sweep over the database.
 * A wake-up runs the sweep now instead of at its next tick; the rows decide what is done.
 */
export class EmbeddedRunner implements Jobs {
  private readonly loops = new Map<JobKind, Loop>();
  private stopped = true;

  constructor(
    private readonly getDeps: () => Deps,
    sweeps: Sweep[],
    private readonly log: Log = silentLog,
  ) {
    for (const sweep of sweeps) this.loops.set(sweep.kind, { sweep, timer: null, running: null, again: false });
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

  /** Stops scheduling and waits for the sweeps in flight, so a SIGTERM never cuts a send in half. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const loop of this.loops.values()) if (loop.timer) clearTimeout(loop.timer);
    await Promise.all([...this.loops.values()].map((loop) => loop.running));
  }

  private run(loop: Loop): void {
    if (loop.timer) clearTimeout(loop.timer);
    loop.timer = null;
    loop.running = (async () => {
      do {
        loop.again = false;
        const started = performance.now();
        try {
          const result = await loop.sweep.run(this.getDeps());
          if (loop.sweep.again?.(result)) loop.again = true;
          // A sweep that found nothing says nothing: an idle poll every second is not news.
          const summary = loop.sweep.summary(result);
          if (summary) this.log.info({ sweep: loop.sweep.kind, ...summary, durationMs: Math.round(performance.now() - started) }, 'sweep done');
        } catch (error) {
          this.log.error({ sweep: loop.sweep.kind, err: error, durationMs: Math.round(performance.now() - started) }, 'sweep failed');
        }
      } while (loop.again && !this.stopped);
    })().finally(() => {
      loop.running = null;
      if (!this.stopped) loop.timer = setTimeout(() => this.run(loop), loop.sweep.intervalMs);
    });
  }
}
