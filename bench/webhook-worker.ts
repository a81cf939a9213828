/**
 * The service's webhook delivery, as its embedded runner drives it: `sweepWebhookDeliveries` on
 * the service's own runtime (createRuntime with runner: false, so nothing else sweeps), called
 * again and again until no delivery is due. Configured through the ordinary environment:
 * DATABASE_URL, ENCRYPTION_KEY, DNS_SERVERS, WEBHOOK_ALLOW_PRIVATE_CIDRS.
 *
 * Forked by bench/suite-webhooks.ts: sends { ready: true } once its runtime is up, then answers
 * { op: 'run', limitMs } with WebhookRun. The process (and its kept connections) lives across
 * runs, as the service's would.
 */
import { loadConfig } from '../server/config';
import { closeOutboundConnections } from '../server/net/outbound';
import { createRuntime, stopRuntime } from '../server/runtime';
import { dueDeliveries } from '../server/services/webhooks/claim';
import { sweepWebhookDeliveries } from '../server/services/webhooks/deliver';
import { exitWithError } from './child-failure';

export interface WebhookRun {
  handled: number;
  /** Outcomes of all sweeps together (succeeded, pending = retry scheduled, failed). */
  outcomes: Record<string, number>;
  sweeps: number;
  ms: number;
  timedOut: boolean;
}

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  const { deps } = runtime;
  await dueDeliveries(deps, 1);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void closeOutboundConnections()
      .then(() => stopRuntime(runtime))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);

  process.on('message', (request: { op: 'run'; limitMs: number }) => {
    void (async () => {
      const started = performance.now();
      const result: WebhookRun = { handled: 0, outcomes: {}, sweeps: 0, ms: 0, timedOut: false };
      for (;;) {
        if (performance.now() - started > request.limitMs) {
          result.timedOut = true;
          break;
        }
        const report = await sweepWebhookDeliveries(deps);
        result.sweeps++;
        result.handled += report.handled;
        for (const [outcome, n] of Object.entries(report.outcomes)) result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + (n ?? 0);
        if (report.handled === 0 && (await dueDeliveries(deps, 1)).length === 0) break;
      }
      result.ms = performance.now() - started;
      process.send!(result);
    })().catch(exitWithError);
  });
  process.send!({ ready: true });
}

main().catch(exitWithError);
