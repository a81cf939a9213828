/**
 * The service's delivery, as its embedded runner drives it: `sweepEmailDispatch` on the service's
 * own runtime (createRuntime with runner: false, so nothing else sweeps), called again and again
 * until no email is due. Configured through the ordinary environment: DATABASE_URL,
 * ENCRYPTION_KEY, DNS_SERVERS, and SMTP_RELAY_URL (pooled relay) or SMTP_MX_PORT +
 * SMTP_MX_ALLOW_PRIVATE_CIDRS (direct to each domain's MX).
 *
 * Forked by bench/suite-emails.ts: sends { ready: true } once its runtime is up, then answers
 * { op: 'run', loops, limitMs } with DispatchRun. `loops` > 1 runs that many sweeps side by side
 * in this process, as that many workers would.
 */
import { loadConfig } from '../server/config';
import { createRuntime, stopRuntime } from '../server/runtime';
import { dispatchesInFlight, dueEmailIds, sweepEmailDispatch } from '../server/services/emails/pipeline/dispatch';
import { exitWithError } from './child-failure';

export interface DispatchRun {
  handled: number;
  sweeps: number;
  ms: number;
  /** Sweeps that handled nothing while emails were still due (all claimed by another loop). */
  idleSweeps: number;
  timedOut: boolean;
  /**
   * Deliveries still in flight when the report was sent. A sweep that spends its budget returns
   * without waiting for its rows in flight (they finish by themselves, uncounted in `handled`);
   * the run waits up to a minute for them, and `ms` includes that wait.
   */
  leftInFlight: number;
}

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const { deps } = runtime;
  await dueEmailIds(deps, 1);

  const stop = () => void stopRuntime(runtime).finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);

  process.on('message', (request: { op: 'run'; loops: number; limitMs: number }) => {
    void (async () => {
      const started = performance.now();
      const result: DispatchRun = { handled: 0, sweeps: 0, ms: 0, idleSweeps: 0, timedOut: false, leftInFlight: 0 };
      const loop = async () => {
        for (;;) {
          if (performance.now() - started > request.limitMs) {
            result.timedOut = true;
            return;
          }
          const { handled } = await sweepEmailDispatch(deps);
          result.sweeps++;
          result.handled += handled;
          if (handled === 0) {
            if ((await dueEmailIds(deps, 1)).length === 0) return;
            result.idleSweeps++;
          }
        }
      };
      await Promise.all(Array.from({ length: request.loops }, loop));
      const draining = performance.now();
      while (dispatchesInFlight(deps) > 0 && performance.now() - draining < 60_000) await new Promise((resolve) => setTimeout(resolve, 5));
      result.leftInFlight = dispatchesInFlight(deps);
      result.ms = performance.now() - started;
      process.send!(result);
    })().catch(exitWithError);
  });
  process.send!({ ready: true });
}

main().catch(exitWithError);
