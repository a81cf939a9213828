import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { E2E_DNS_PORT } from './loopback-ports';

/** A web server a spec starts for itself, with settings the run's shared server must not have. */
export interface OwnServer {
  url: string;
  /** Stops the server (SIGTERM, waiting for it to exit) and removes its data directory. */
  stop(): Promise<void>;
}

const STARTUP_MS = 170_000;

/** The address a spec's own server answers on: the spec's `test.use({ baseURL })` needs it before the server starts. */
export const ownServerUrl = (port: number) => `http://localhost:${port}`;

/**
 * Starts a web server from the same build as the run's shared one (playwright.config.ts), on its
 * own port and fresh embedded database, with `env` on top of the shared server's settings: a spec
 * that needs Stripe configured or the shared test clock on gets it without changing the server
 * every other spec runs against. Resolves once /api/health answers; call it in a beforeAll with
 * a timeout above three minutes.
 */
export async function startOwnServer({ port, dataDir, env = {}, what }: { port: number; dataDir: string; env?: Record<string, string>; what: string }): Promise<OwnServer> {
  const url = ownServerUrl(port);
  rmSync(dataDir, { recursive: true, force: true });
  const server: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'scripts/start.mjs'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      APP_URL: url,
      DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}`,
      BOUNCE_SMTP_PORT: '0',
      SMTP_GATEWAY_PORT: '0',
      SMTP_GATEWAY_TLS_PORT: '0',
      MAIL_HOST: 'mx.eumail.example',
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    const up = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, stop };
    if (Date.now() > deadline || server.exitCode !== null) {
      await stop();
      throw new Error(`${what} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
