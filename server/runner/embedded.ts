import type { Deps } from '../deps';
import type { JobKind, Jobs } from '../jobs/jobs';
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
    private readonly log: (line: string) => void = (line) => console.error(line),
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
        try {
          const result = await loop.sweep.run(this.getDeps());
          if (loop.sweep.again?.(result)) loop.again = true;
        } catch (error) {
          this.log(`[runner] ${loop.sweep.kind} sweep failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      } while (loop.again && !this.stopped);
    })().finally(() => {
      loop.running = null;
      if (!this.stopped) loop.timer = setTimeout(() => this.run(loop), loop.sweep.intervalMs);
    });
  }
}
