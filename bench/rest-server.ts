/**
 * Benchmark target (a): the service's own REST path, as the process entry serves it, without
 * Next (REST never reaches Next) and without the embedded runner. Started by bench/run.ts as a
 * child process; configured through the ordinary environment (DATABASE_URL, NODE_ENV, ROLES...).
 *
 * Listens on 127.0.0.1 only, on BENCH_LISTEN_PORT (0 = any free port), and prints
 * `READY <port>` on stdout once it accepts connections. SIGTERM/SIGINT close it cleanly, so a
 * `--cpu-prof` profile gets written.
 */
import { loadConfig } from '../server/config';
import { createRequestListener } from '../server/http/server';
import { createRuntime, stopRuntime } from '../server/runtime';
import { serveTarget } from './serve-target';
import { exitWithError } from './child-failure';

async function main(): Promise<void> {
  const runtime = await createRuntime(loadConfig(process.env), { runner: false });
  await serveTarget('rest', createRequestListener(runtime, {}), () => stopRuntime(runtime));
}

main().catch(exitWithError);
