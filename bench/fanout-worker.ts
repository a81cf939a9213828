/**
 * The service's broadcast fan-out, as its embedded runner drives it: `sweepBroadcasts` on the
 * service's own runtime (createRuntime with runner: false, so nothing else sweeps and nothing is
 * delivered), run again at once when the sweep says so (`again`: a run stopped at its budget with
 * chunks left) and otherwise after the sweep's interval, exactly as server/runner/embedded.ts
 * schedules it. Configured through the ordinary environment: DATABASE_URL, ENCRYPTION_KEY,
 * APP_URL, MAIL_HOST.
 *
 * Forked by bench/suite-broadcasts.ts: sends { ready: true } once its runtime is up, then answers
 * { op: 'run', broadcastId, limitMs } with FanOutRun once that broadcast is no longer being sent
 * (sent, held, failed, cancelled) or after limitMs. Several of these side by side are several
 * worker processes of the service.
 */
import { eq } from 'drizzle-orm';
import { broadcasts } from '../db/schema';
import { loadConfig } from '../server/config';
import { createRuntime, stopRuntime } from '../server/runtime';
import { SWEEPS } from '../server/runner/sweeps';
import { sweepBroadcasts, type BroadcastSweepReport } from '../server/services/broadcasts/fan-out';
import { exitWithError } from './child-failure';

export interface FanOutRun {
  /** Sweeps made, and how many of them found the broadcast claimed by someone else (or nothing due). */
  sweeps: number;
  idleSweeps: number;
  /** Runs of the broadcast (each up to the run budget, chunk after chunk) this process made, by outcome. */
  outcomes: Record<string, number>;
  /** Date.now() when this process's sweep stored the last chunk (outcome `sent`); null if another did. */
  sentAt: number | null;
  /** The broadcast's status when the loop ended. */
  status: string;
  ms: number;
  timedOut: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const { deps } = runtime;
  const sweep = SWEEPS.find((s) => s.kind === 'broadcast-fanout');
  if (!sweep) throw new Error('no broadcast-fanout sweep in server/runner/sweeps.ts');
  const statusOf = async (id: string) => {
    const [row] = await deps.db.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, id));
    return row?.status ?? 'gone';
  };
  await statusOf('00000000-0000-7000-8000-000000000000'); // a connection open before the clock starts

  const stop = () => void stopRuntime(runtime).finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);

  process.on('message', (request: { op: 'run'; broadcastId: string; limitMs: number }) => {
    void (async () => {
      const started = performance.now();
      const result: FanOutRun = { sweeps: 0, idleSweeps: 0, outcomes: {}, sentAt: null, status: 'sending', ms: 0, timedOut: false };
      for (;;) {
        if (performance.now() - started > request.limitMs) {
          result.timedOut = true;
          break;
        }
        const report: BroadcastSweepReport = await sweepBroadcasts(deps);
        result.sweeps++;
        if (report.handled === 0) result.idleSweeps++;
        for (const [outcome, n] of Object.entries(report.outcomes)) result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + (n ?? 0);
        if (report.outcomes.sent) result.sentAt = Date.now();
        result.status = await statusOf(request.broadcastId);
        if (result.status !== 'sending' && result.status !== 'scheduled') break;
        // The embedded runner: again at once when the sweep stopped with work left, else after its interval.
        if (!sweep.again?.(report)) await sleep(sweep.intervalMs);
      }
      result.ms = performance.now() - started;
      process.send!(result);
    })().catch(exitWithError);
  });
  process.send!({ ready: true });
}

main().catch(exitWithError);
