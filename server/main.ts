import type { AddressInfo } from 'node:net';
import { projectRoot } from '@/db/project-root';
import { ConfigError, loadConfig, type Config } from './config';
import { DataDirLockedError, dataDirSecret, lockDataDir, writeAdminEndpoint } from './data-dir';
import { createHttpServer, createRequestListener, type NextHandler } from './http/server';
import { createOpsServer } from './http/ops-server';
import { startBounceServer } from './mail/bounce-server';
import { startSmtpGateway, type SmtpGateway } from './mail/gateway-server';
import { loadGatewayTls } from './mail/gateway-tls';
import type { Log } from './log';
import type { Runtime } from './runtime';
import { createRuntime } from './runtime';
import { handleStopSignals } from './shutdown';
import { setRuntime } from './runtime-registry';


async function startNext(config: Config): Promise<NextHandler> {
  const { default: next } = await import('next');
  const app = next({ dev: config.nodeEnv === 'development', dir: projectRoot, hostname: 'localhost', port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  return (req, res) => handle(req, res);
}

/** The SMTP relay gateway on its ports (0 = off), its certificate read again on SIGHUP. */
async function startGateway(runtime: Runtime, log: Log): Promise<SmtpGateway | null> {
  const { config } = runtime;
  const { port, tlsPort } = config.smtpGateway;
  if (port === 0 && tlsPort === 0) return null;
  const loadTls = () => loadGatewayTls({ ...config.smtpGateway, dataDir: config.dataDir, hostName: config.mailHost, encryptionKey: runtime.deps.encryptionKey, log });
  const gateway = await startSmtpGateway({
    deps: runtime.deps,
    host: config.host,
    name: config.mailHost,
    ports: { starttls: port === 0 ? undefined : port, implicitTls: tlsPort === 0 ? undefined : tlsPort },
    tls: await loadTls(),
  });
  process.on('SIGHUP', () => {
    loadTls().then(
      (tls) => {
        gateway.reloadTls(tls);
        log.info({ source: tls.source }, 'SIGHUP: SMTP gateway certificate reloaded');
      },
      (error: unknown) => log.error({ err: error }, 'SIGHUP: SMTP gateway certificate not reloaded; the previous one stays'),
    );
  });
  log.info(gateway.ports, `SMTP gateway listening on ${[gateway.ports.starttls && `port ${gateway.ports.starttls} (STARTTLS)`, gateway.ports.implicitTls && `port ${gateway.ports.implicitTls} (TLS)`].filter(Boolean).join(' and ')}`);
  return gateway;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // Before the logger exists, and promised as one plain line naming the variable.
      // eslint-disable-next-line no-console
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  (process.env as Record<string, string>).NODE_ENV = config.nodeEnv;

  let releaseLock: () => void = () => {};
  if (!config.databaseUrl) {
    try {
      releaseLock = lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        // One plain line, like a configuration mistake: the process has not started.
        // eslint-disable-next-line no-console
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }

  const runtime = await createRuntime(config);
  setRuntime(runtime);
  const log = runtime.deps.log;
  for (const cidr of config.webhookAllowPrivateCidrs) log.warn({ cidr }, `WEBHOOK_ALLOW_PRIVATE_CIDRS lets webhooks reach ${cidr}: for tests only`);
  if (runtime.sharedClock) {
    const offsetMs = runtime.sharedClock.currentOffsetMs();
    log.warn({ offsetMs, now: runtime.sharedClock.now().toISOString() }, 'TEST_CLOCK=on: this process keeps a shared test time that anyone with the admin CLI can move (clock:set, clock:advance): for tests only, never in production');
  }

  let server: ReturnType<typeof createHttpServer> | null = null;
  if (config.roles.includes('web')) {
    const adminToken = dataDirSecret(config.dataDir, 'admin-token');
    const nextHandler = config.dashboard ? await startNext(config) : undefined;
    server = createHttpServer(createRequestListener(runtime, { next: nextHandler, adminToken }), log, runtime.config);
    await new Promise<void>((resolve) => server!.listen(config.port, config.host, resolve));
    const port = (server.address() as AddressInfo).port;
    writeAdminEndpoint(config.dataDir, { url: `http://127.0.0.1:${port}/admin/command`, token: adminToken, pid: process.pid });
    log.info({ port, appUrl: config.appUrl, database: runtime.database.kind }, `EU Mail listening on port ${port}: ${config.appUrl} (API ${config.appUrl}/api, docs ${config.appUrl}/docs) on ${runtime.database.kind}`);
  }
  if (!config.roles.includes('web')) {
    server = createOpsServer(runtime);
    await new Promise<void>((resolve) => server!.listen(config.port, config.host, resolve));
    const port = (server.address() as AddressInfo).port;
    log.info({ port, roles: config.roles }, `No web role: port ${port} serves /api/health, /api/health/ready and /metrics only`);
  }
  if (runtime.runner && config.roles.includes('worker')) log.info({ worker: runtime.deps.claims.id }, `Embedded runner started (no Inngest configured) as worker ${runtime.deps.claims.id}`);
  const bounces =
    config.roles.includes('smtp') && config.bounceSmtpPort !== 0
      ? await startBounceServer({ port: config.bounceSmtpPort, host: config.host, deps: runtime.deps, name: config.mailHost })
      : null;
  if (bounces) log.info({ port: bounces.port }, `Bounce receiver listening on port ${bounces.port}`);
  const gateway = config.roles.includes('smtp') ? await startGateway(runtime, log) : null;

  handleStopSignals({ runtime, server, smtp: [bounces, gateway].filter((listener) => listener !== null), releaseLock }, log);
}

main().catch((error: unknown) => {
  // A failure to start may come before the logger: stderr, plainly.
  // eslint-disable-next-line no-console
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
