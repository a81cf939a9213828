import type { Db } from '@/db/client';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Jobs } from './jobs/jobs';
import type { Log } from './log';
import type { Metrics } from './metrics/metrics';
import type { SystemMailer } from './mail/system-mailer';
import type { SandboxDomain } from './services/domains/sandbox';
import type { ClaimedEmail, DispatchResult } from './services/emails/pipeline/types';
import type { Dispatcher } from './services/shared/dispatcher';
import type { DeliveryShaper } from './services/delivery-shaping/shaper';
import type { SystemSender } from './services/system-mail/sender';
import type { TemplateRenderer } from './services/templates/render-pool';
import type { WorkerClaims } from './services/shared/claims/worker';
import type { AttemptReport, ClaimedDelivery } from './services/webhooks/delivery-types';

/**
 * What this process has in flight of each kind of dispatched work: the slots and the share per
 * destination, shared by every sweep and durable function of the process. The runtime builds
 * them once (emails/pipeline/dispatcher.ts, webhooks/deliver.ts); each runtime has its own, so
 * tests that run several workers in one process keep them apart.
 */
export interface Dispatchers {
  emails: Dispatcher<ClaimedEmail, DispatchResult>;
  webhooks: Dispatcher<ClaimedDelivery, AttemptReport>;
}

/** What services are handed: the real database, and time, mail and job wake-ups that tests can swap. */
export interface Deps {
  db: Db;
  /** What is behind `db`: for readiness and the operator, never for a rule. */
  databaseKind: 'postgres' | 'pglite';
  clock: Clock;
  config: Config;
  jobs: Jobs;
  systemMailer: SystemMailer;
  /** SYSTEM_MAIL_FROM's domain and the key that signs the service's own mail. */
  systemSender: SystemSender;
  /** Seals secrets at rest (DKIM private keys). */
  encryptionKey: Buffer;
  /** The shared onboarding domain and its signing key (SANDBOX_DOMAIN, or derived from APP_URL). */
  sandbox: SandboxDomain;
  /** For what the edges and the runner report; services answer with results and errors instead. */
  log: Log;
  /** This process as a holder of claimed work: every sweep and durable function claims through it. */
  claims: WorkerClaims;
  /** The process's dispatchers of emails and webhook deliveries (slots, per-destination limits). */
  dispatchers: Dispatchers;
  /** Traffic shaping per mailbox provider and sending domain: asked before every MX transaction, told every reply (docs/delivery.md). */
  shaping: DeliveryShaper;
  /** What this process counts for /metrics (accepted, delivered, refused). */
  metrics: Metrics;
  /** Where templates are rendered: worker threads, off the event loop (docs/templates.md). */
  templateRenderer: TemplateRenderer;
}
