import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the scrape reads from the database when it is asked, not on every event. */
export interface MetricsSources {
  /** Due rows per kind of background work, and how long the oldest has been due. */
  dueWork(): Promise<Array<{ kind: string; due: number; oldestAgeSeconds: number }>>;
  /** This process's database connections by state, as the server sees them; null on embedded PGlite. */
  connections(): Promise<Array<{ state: string; count: number }> | null>;
  /** Traffic shaping per provider (docs/delivery.md): queue depth, and per sending domain the rate, deferral rate and pause. */
  deliveryProviders(): Promise<{
    providers: Array<{ provider: string; queued: number; deferralRate: number }>;
    /** Only lanes slowed by replies or paused: a sending domain appears only while its traffic is in trouble. */
    lanes: Array<{ provider: string; sendingDomain: string; ratePerMinute: number | null; paused: boolean }>;
  }>;
}

export interface RequestLabels {
  method: string;
  route: string;
  status: number;
}

/**
 * What this process counts, for `/metrics`. Services report through these few verbs, so they
 * never meet prom-client; every process has its own (Prometheus adds the instance).
 */
export interface Metrics {
  /** The Prometheus text exposition, with the database read for it first. */
  render(): Promise<{ contentType: string; body: string }>;
  requestDone(labels: RequestLabels, seconds: number): void;
  emailsAccepted(labels: { source: string; mode: string }, count: number): void;
  /** Messages stored through the one admit door, by the way they came in (emails/accept/vias.ts). */
  admitted(via: string, count: number): void;
  /** One delivery attempt ended, leaving the email in this status. */
  deliveryOutcome(status: string): void;
  rateLimited(channel: 'api' | 'smtp'): void;
  /** A reputation block paused a provider, for one sending domain or the whole service. */
  deliveryPaused(provider: string, scope: 'domain' | 'service'): void;
  /** Where the scrape reads the backlog and the connections from; until then they are absent. */
  readFrom(sources: MetricsSources): void;
}

/** An attempt that left recipients to try again (the email still `sending`, or `sent` to some) was deferred. */
const outcomeClass = (status: string) => (status === 'sending' || status === 'sent' ? 'deferred' : status);

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(process: { roles: string[]; poolSize: number | null }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'eumail_' });
  let sources: MetricsSources | null = null;

  new Gauge({ name: 'eumail_process_roles', help: 'This process and the roles it runs (always 1)', labelNames: ['roles'], registers: [registry] }).set({ roles: process.roles.join(',') || 'none' }, 1);
  const requests = new Counter({ name: 'eumail_http_requests_total', help: 'HTTP requests answered, by route template and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'eumail_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const accepted = new Counter({ name: 'eumail_emails_accepted_total', help: 'Emails accepted (stored and queued), by source and mode', labelNames: ['source', 'mode'], registers: [registry] });
  const admitted = new Counter({ name: 'eumail_admitted_total', help: 'Messages stored through the admit door, by way in: api, batch, smtp, broadcast, broadcast_test, confirmation, system', labelNames: ['via'], registers: [registry] });
  const attempts = new Counter({ name: 'eumail_delivery_attempts_total', help: 'Delivery attempts finished, by outcome: delivered, deferred (recipients left to retry), bounced, failed, suppressed, complained', labelNames: ['outcome'], registers: [registry] });
  const delivered = new Counter({ name: 'eumail_emails_delivered_total', help: 'Emails delivered: an attempt ended with no recipient left to try and at least one accepted', registers: [registry] });
  const limited = new Counter({ name: 'eumail_rate_limited_total', help: 'Requests refused with RATE_LIMITED, by channel', labelNames: ['channel'], registers: [registry] });

  const pauses = new Counter({ name: 'eumail_delivery_provider_pauses_total', help: 'Providers paused because they refused us for reputation, by provider and scope (domain: one sending domain; service: everyone)', labelNames: ['provider', 'scope'], registers: [registry] });
  const providerQueue = new Gauge({ name: 'eumail_delivery_provider_queue', help: 'Recipients still to deliver (pending or deferred), by mailbox provider', labelNames: ['provider'], registers: [registry] });
  const providerRate = new Gauge({ name: 'eumail_delivery_provider_rate_per_minute', help: 'Messages per minute allowed now, by provider and sending domain, for the lanes slowed by replies or paused', labelNames: ['provider', 'sending_domain'], registers: [registry] });
  const providerDeferrals = new Gauge({ name: 'eumail_delivery_provider_deferral_ratio', help: 'Deferrals (slow-down and block replies) among the replies of the last 5 to 10 minutes, by provider', labelNames: ['provider'], registers: [registry] });
  const providerPaused = new Gauge({ name: 'eumail_delivery_provider_paused', help: 'Whether deliveries to the provider are paused (1), by provider and sending domain (* = everyone), for the lanes slowed by replies or paused', labelNames: ['provider', 'sending_domain'], registers: [registry] });
  const due = new Gauge({ name: 'eumail_due_work', help: 'Rows of background work that are due now, by kind', labelNames: ['kind'], registers: [registry] });
  const dueAge = new Gauge({ name: 'eumail_due_work_oldest_age_seconds', help: 'How long the oldest due row of each kind has been waiting past its due time', labelNames: ['kind'], registers: [registry] });
  const connections = new Gauge({ name: 'eumail_db_connections', help: "This process's database connections by state, as pg_stat_activity sees them (the scrape's own included)", labelNames: ['state'], registers: [registry] });
  if (process.poolSize !== null) new Gauge({ name: 'eumail_db_pool_max', help: 'Most connections this process opens for its pool', registers: [registry] }).set(process.poolSize);

  // Read at scrape time, never on the request path: a query per kind is cheap every 15 s.
  const readDatabase = async () => {
    if (!sources) return;
    const [work, held, shaping] = await Promise.all([sources.dueWork(), sources.connections(), sources.deliveryProviders()]);
    for (const gauge of [providerQueue, providerRate, providerDeferrals, providerPaused]) gauge.reset();
    for (const row of shaping.providers) {
      providerQueue.set({ provider: row.provider }, row.queued);
      providerDeferrals.set({ provider: row.provider }, row.deferralRate);
    }
    for (const lane of shaping.lanes) {
      const labels = { provider: lane.provider, sending_domain: lane.sendingDomain };
      providerRate.set(labels, lane.ratePerMinute ?? Number.POSITIVE_INFINITY);
      providerPaused.set(labels, lane.paused ? 1 : 0);
    }
    due.reset();
    dueAge.reset();
    for (const row of work) {
      due.set({ kind: row.kind }, row.due);
      dueAge.set({ kind: row.kind }, row.oldestAgeSeconds);
    }
    connections.reset();
    for (const row of held ?? []) connections.set({ state: row.state }, row.count);
  };

  return {
    render: async () => {
      await readDatabase();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    requestDone: ({ method, route, status }, seconds) => {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    emailsAccepted: (labels, count) => {
      if (count > 0) accepted.inc(labels, count);
    },
    admitted: (via, count) => {
      if (count > 0) admitted.inc({ via }, count);
    },
    deliveryOutcome: (status) => {
      attempts.inc({ outcome: outcomeClass(status) });
      if (status === 'delivered') delivered.inc();
    },
    rateLimited: (channel) => limited.inc({ channel }),
    deliveryPaused: (provider, scope) => pauses.inc({ provider, scope }),
    readFrom: (next) => {
      sources = next;
    },
  };
}
