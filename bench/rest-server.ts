/**
 * Benchmark target (a): the service's own REST path, as the process entry serves it, without
 * Next (REST never reaches Next) and without the embedded runner. Started by bench/run.ts as a
 * child process; configured through the ordinary environment (DATABASE_URL, NODE_ENV, ROLES...).
 *
 * Listens on 127.0.0.1 only, on BENCH_LISTEN_PORT (0 = any free port), and prints
 * `READY <port>` on stdout once it accepts connections. SIGTERM/SIGINT close it cleanly, so a
 * `--cpu-prof` profile gets written.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../server/config';
import { createHttpServer, createRequestListener } from '../server/http/server';
import { createRuntime, stopRuntime } from '../server/runtime';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const runtime = await createRuntime(config, { runner: false });
  const listener = createRequestListener(runtime, {});
  // Requests still running when the load stops (their client gone) finish before the pool closes.
  let inFlight = 0;
  const server = createHttpServer(async (req, res) => {
    inFlight++;
    try {
      await listener(req, res);
    } finally {
      inFlight--;
    }
  });
  await new Promise<void>((resolve) => server.listen(Number(process.env.BENCH_LISTEN_PORT ?? 0), '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`READY ${port}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    for (let waited = 0; inFlight > 0 && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    server.closeAllConnections();
    await stopRuntime(runtime);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  // The parent going away must not leave this process behind.
  process.on('disconnect', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
