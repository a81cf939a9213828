import { migrate, openDatabase, type Database } from '@/db/client';
import { closeOutboundConnections } from './net/outbound';
import { createAuth, type Auth } from './auth/better-auth';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { dataDirSecret } from './data-dir';
import type { Deps } from './deps';
import { inngestJobs } from './jobs/inngest-jobs';
import { createLog, type Log } from './log';
import type { Jobs } from './jobs/jobs';
import { closeRelayPools } from './mail/delivery';
import { createSystemMailer, type SystemMailer } from './mail/system-mailer';
import { EmbeddedRunner } from './runner/embedded';
import { SWEEPS } from './runner/sweeps';
import { createEmailDispatcher } from './services/emails/pipeline/dispatcher';
import { createWebhookDispatcher } from './services/webhooks/deliver';
import { SharedTestClock } from './shared-test-clock';
import { loadSandboxDomain } from './services/domains/sandbox';
import { loadSystemSender } from './services/system-mail/sender';
import { createTemplateRenderer } from './services/templates/render-pool';
import { WorkerClaims } from './services/shared/claims/worker';
import { readDueWork } from './services/health/due-work';
import { createMetrics } from './metrics/metrics';
import { shapingMetrics } from './services/delivery-shaping/metrics';
import { databaseShapingStore, DeliveryShaper, raisePauseAlert } from './services/delivery-shaping';


export interface Runtime {
  config: Config;
  database: Database;
  deps: Deps;
  auth: Auth;
  runner: EmbeddedRunner | null;
  /** TEST_CLOCK=on (and no clock handed in): the clock shared through the database, polled until stopRuntime. */
  sharedClock: SharedTestClock | null;
}

interface RuntimeOptions {
  clock?: Clock;
  systemMailer?: SystemMailer;
  /** An already-open database (tests share one per file). */
  database?: Database;
  /** Start the embedded runner when no Inngest is configured (default: when the worker role is on). */
  runner?: boolean;
  /** Where log lines go (default: stdout at LOG_LEVEL). */
  log?: Log;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const database =
    options.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? null : `${config.dataDir}/pglite` }));
  if (!options.database) await migrate(database);
  const log = options.log ?? createLog(config.logLevel);
  let runner: EmbeddedRunner | null = null;
  let jobs: Jobs;
  if (config.inngestEnabled) {
    const { inngest } = await import('@/inngest/client');
    jobs = inngestJobs(inngest, log);
  } else {
    runner = new EmbeddedRunner(() => deps, SWEEPS, log);
    jobs = runner;
  }
  const claims = new WorkerClaims({
    db: database.db,
    log,
    openSession: database.openSession,
    // A database this process opened itself on PGlite is under the DATA_DIR lock: nobody else holds its rows.
    exclusive: database.kind === 'pglite' && !options.database,
    roles: config.roles,
  });
  // The operator CLI (no roles) claims nothing and leaves no worker behind.
  if (config.roles.length > 0) await claims.start();
  const sharedClock = !options.clock && config.testClock ? new SharedTestClock(database.db, log) : null;
  await sharedClock?.start();
  const deps: Deps = {
    db: database.db,
    databaseKind: database.kind,
    clock: options.clock ?? sharedClock ?? systemClock,
    config,
    jobs,
    // The delivery options of customers' mail (live-delivery.ts), so ours goes the same way.
    systemMailer:
      options.systemMailer ??
      createSystemMailer({
        relayUrl: config.smtpRelayUrl,
        dnsServers: config.dnsServers,
        mxPort: config.smtpMxPort,
        heloName: config.mailHost,
        allowPrivateCidrs: config.smtpMxAllowPrivateCidrs,
        timeouts: config.smtpTimeouts,
      }),
    systemSender: loadSystemSender(config),
    encryptionKey: config.encryptionKey ?? Buffer.from(dataDirSecret(config.dataDir, 'encryption-key'), 'base64url'),
    sandbox: loadSandboxDomain(config),
    log,
    claims,
    // Built once here, with this runtime's deps: a second runtime in one process (tests) has its own.
    dispatchers: { emails: createEmailDispatcher(() => deps), webhooks: createWebhookDispatcher(() => deps) },
    shaping: new DeliveryShaper({
      clock: options.clock ?? sharedClock ?? systemClock,
      mailHost: config.mailHost,
      overrides: config.deliveryProviderLimits,
      store: databaseShapingStore(database.db),
      alert: (alert) => raisePauseAlert(deps, alert),
      fault: (error) => log.error({ err: error }, 'traffic shaping: the database could not be read or written'),
    }),
    metrics: createMetrics({ roles: config.roles, poolSize: database.poolSize ?? null }),
    templateRenderer: createTemplateRenderer(),
  };
  deps.metrics.readFrom({
    dueWork: () => readDueWork(deps),
    connections: async () => (database.connectionStates ? database.connectionStates() : null),
    deliveryProviders: shapingMetrics(deps),
  });
  // Pauses and adapted rates outlive a restart; a delivering process syncs them every few seconds.
  await deps.shaping.load();
  if (config.roles.includes('worker')) deps.shaping.start();
  const auth = createAuth(deps, config.authSecret ?? dataDirSecret(config.dataDir, 'auth-secret'));
  if (runner && (options.runner ?? config.roles.includes('worker'))) runner.start();
  return { config, database, deps, auth, runner, sharedClock };
}

export async function stopRuntime(runtime: Runtime): Promise<void> {
  await runtime.runner?.stop();
  await runtime.deps.shaping.stop();
  await runtime.deps.claims.stop();
  await runtime.sharedClock?.stop();
  await runtime.deps.templateRenderer.close();
  closeRelayPools();
  await closeOutboundConnections();
  await runtime.database.close();
}
