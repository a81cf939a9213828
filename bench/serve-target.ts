import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves one benchmark target on 127.0.0.1 (BENCH_LISTEN_PORT, 0 = any free port), prints
 * `READY <port>` once it accepts connections, and on SIGTERM/SIGINT or the parent going away
 * lets requests still running finish before `close` releases the database, so a `--cpu-prof`
 * profile gets written and nothing is left behind.
 */
export async function serveTarget(
  name: string,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  close: () => Promise<void>,
): Promise<void> {
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    handle(req, res)
      .catch((error: unknown) => {
        console.error(`[${name}] request failed`, error);
        if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ error: 'Internal server error', code: 'INTERNAL_ERROR' }));
        } else res.destroy();
      })
      .finally(() => inFlight--);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(Number(process.env.BENCH_LISTEN_PORT ?? 0), '127.0.0.1', resolve));
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    for (let waited = 0; inFlight > 0 && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    server.closeAllConnections();
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('disconnect', () => void stop());
}
