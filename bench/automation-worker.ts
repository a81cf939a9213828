/**
 * The service's automation run engine, as its embedded runner drives it: `sweepAutomationRuns` on
 * the service's own runtime (createRuntime with runner: false, so nothing else sweeps and nothing
 * is delivered), again at once while the sweep says there is more, until no run is due. Configured
 * through the ordinary environment: DATABASE_URL, ENCRYPTION_KEY, APP_URL, MAIL_HOST.
 *
 * Forked by bench/suite-automations.ts: sends { ready: true } once its runtime is up, then answers
 * { op: 'run', limitMs } with AutomationSweepRun once no run is due (or after limitMs).
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import { automationRuns } from '../db/schema';
import { loadConfig } from '../server/config';
import { createRuntime, stopRuntime } from '../server/runtime';
import { sweepAutomationRuns } from '../server/services/automations';
import { exitWithError } from './child-failure';

export interface AutomationSweepRun {
  sweeps: number;
  handled: number;
  outcomes: Record<string, number>;
  ms: number;
  timedOut: boolean;
}

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const { deps } = runtime;
  const anyDue = async () =>
    (await deps.db.select({ one: sql<number>`1` }).from(automationRuns).where(and(eq(automationRuns.status, 'running'), lte(automationRuns.dueAt, deps.clock.now()))).limit(1)).length > 0;
  await anyDue(); // a connection open before the clock starts

  const stop = () => void stopRuntime(runtime).finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);

  process.on('message', (request: { op: 'run'; limitMs: number }) => {
    void (async () => {
      const started = performance.now();
      const result: AutomationSweepRun = { sweeps: 0, handled: 0, outcomes: {}, ms: 0, timedOut: false };
      for (;;) {
        if (performance.now() - started > request.limitMs) {
          result.timedOut = true;
          break;
        }
        const report = await sweepAutomationRuns(deps);
        result.sweeps++;
        result.handled += report.handled;
        for (const [outcome, n] of Object.entries(report.outcomes)) result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + (n ?? 0);
        if (!report.more && !(await anyDue())) break;
      }
      result.ms = performance.now() - started;
      process.send!(result);
    })().catch(exitWithError);
  });
  process.send!({ ready: true });
}

main().catch(exitWithError);
