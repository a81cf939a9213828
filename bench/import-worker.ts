/**
 * The service's background contact import, as its embedded runner drives it: `sweepContactImports`
 * on the service's own runtime (createRuntime with runner: false, so nothing else sweeps), called
 * again until no import has rows left. Configured through the ordinary environment (DATABASE_URL).
 *
 * Forked by bench/suite-contacts.ts: sends { ready: true } once its runtime is up, then answers
 * { op: 'run' } with ImportRun.
 */
import { loadConfig } from '../server/config';
import { createRuntime, stopRuntime } from '../server/runtime';
import { sweepContactImports } from '../server/services/contact-imports/run';
import { exitWithError } from './child-failure';

export interface ImportRun {
  sweeps: number;
  ms: number;
}

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const stop = () => void stopRuntime(runtime).finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.on('message', () => {
    void (async () => {
      const started = performance.now();
      let sweeps = 0;
      for (;;) {
        const report = await sweepContactImports(runtime.deps);
        sweeps++;
        if (!report.outcomes.more) break;
      }
      process.send!({ sweeps, ms: performance.now() - started } satisfies ImportRun);
    })().catch(exitWithError);
  });
  process.send!({ ready: true });
}

main().catch(exitWithError);
