/**
 * `BENCH_SUITE=webhooks npm run bench`: signed webhook deliveries per second to a loopback
 * receiver, next to bare undici POSTs to the same receiver in the same run.
 *
 *   service   BENCH_WEBHOOK_COUNT deliveries queued the real way (the service's logEvents: events
 *             of a subscribed type, each queueing one delivery per endpoint in the same
 *             statement), then bench/webhook-worker.ts runs the service's sweepWebhookDeliveries
 *             on its own runtime again and again until none is due. Three variants, each its own
 *             organization: one endpoint named hooks.bench.test, resolved before every attempt
 *             through the loopback dns2 server (DNS_SERVERS) — the headline; one endpoint at the IP
 *             literal 127.0.0.1 (no DNS); BENCH_WEBHOOK_ENDPOINTS endpoints with a name each (the
 *             per-endpoint limit of 16 no longer the bound, the process's 64 slots are).
 *   bare      bench/bare-webhooks.ts: as many POSTs of a body as large as the service's through one
 *             undici Pool, 16 in flight (the service's per-endpoint limit) and 64 (its process
 *             limit); then with a standardwebhooks signature per request, and with a DNS lookup
 *             (A + AAAA; a fresh resolver, and one kept for the run) + signature per request: the floor
 *             of the same work per delivery, which the service is rated against.
 *
 * The receiver is bench/webhook-sink.ts, a bare node:http server in its own process; the DNS
 * server is the emails suite's bench/loopback-peer.ts (its SMTP sink idles). Every run checks that
 * each delivery (each bare POST) reached the receiver exactly once; service runs also that every
 * delivery is `succeeded` with one attempt recorded, that the names were resolved (two queries per
 * delivery), and verify received signatures with standardwebhooks and the endpoint's secret.
 * Results: a table on stdout and bench/results/webhooks-latest.json.
 *
 * Knobs: BENCH_WEBHOOK_COUNT (20000), BENCH_WEBHOOK_ENDPOINTS (8; 0 = no spread variant),
 * BENCH_WEBHOOK_WARMUP (2000: deliveries, and bare POSTs, before the measured runs),
 * BENCH_WEBHOOK_SECONDS (120: a service run starts no sweep after that and is rated over what it
 * delivered), BENCH_WEBHOOK_VARIANTS (dns,ip,spread), BENCH_PROFILE=1 (CPU profile of the worker).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import postgres from 'postgres';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../server/config';
import { newId } from '../server/ids';
import { createRuntime, stopRuntime, type Runtime } from '../server/runtime';
import { admitApiKey } from '../server/services/api-keys/admission';
import { createOrganizationWithKey } from '../server/services/organizations/organizations';
import { logEvents, type EventRow } from '../server/services/shared/events';
import { PER_ENDPOINT, WEBHOOK_CONCURRENCY } from '../server/services/webhooks/deliver';
import { createWebhook } from '../server/services/webhooks/crud';
import { payloadOf } from '../server/services/webhooks/send';
import type { BareWebhookJob, BareWebhookRun } from './bare-webhooks';
import { cpuWindow, createDatabase, dataDir, fixed, forkWorker, int, log, machineInfo, noteLoadAverage, onCleanup, postgresCpuMs, printTable, writeResult, type Worker } from './harness';
import type { PeerStats } from './loopback-peer';
import type { WebhookRun } from './webhook-worker';
import type { SinkSample, SinkStats } from './webhook-sink';

const VARIANTS = ['dns', 'ip', 'spread'] as const;
type VariantId = (typeof VARIANTS)[number];

const settings = {
  count: int('BENCH_WEBHOOK_COUNT', 20_000, 100),
  endpoints: int('BENCH_WEBHOOK_ENDPOINTS', 8, 0),
  warmup: int('BENCH_WEBHOOK_WARMUP', 2_000, 0),
  seconds: int('BENCH_WEBHOOK_SECONDS', 120),
  /** Events per logEvents statement while seeding. */
  seedBatch: 1_000,
  profile: process.env.BENCH_PROFILE === '1',
  variants: (() => {
    const wanted = (process.env.BENCH_WEBHOOK_VARIANTS || VARIANTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
    for (const v of wanted) if (!(VARIANTS as readonly string[]).includes(v)) throw new Error(`BENCH_WEBHOOK_VARIANTS: unknown variant "${v}" (use ${VARIANTS.join(', ')})`);
    return VARIANTS.filter((v) => wanted.includes(v) && (v !== 'spread' || int('BENCH_WEBHOOK_ENDPOINTS', 8, 0) > 0));
  })(),
};

// The largest plans allow 10 endpoints per organization.
if (settings.endpoints > 10) throw new Error(`BENCH_WEBHOOK_ENDPOINTS must be at most 10 (the plans' limit per organization), got ${settings.endpoints}`);

const TARGETS = {
  perSecond: 1_000,
  /** Of the bare undici figure at the same concurrency. */
  shareOfBare: 0.5,
};

export const webhooksDeadlineMs = () =>
  240_000 + (settings.variants.length + 1) * (120_000 + settings.seconds * 1000 + settings.count * 3) + 5 * (60_000 + settings.count * 2);

/* ------------------------------------------------------------------ the world ----------------- */

const HOST = 'hooks.bench.test';
const spreadHost = (i: number) => `hooks${i}.bench.test`;
const EVENT_TYPE = 'email.delivered';
/** What the service sends before the signature headers (server/services/webhooks/send.ts). */
const STATIC_HEADERS = { 'content-type': 'application/json', 'user-agent': 'eumail-webhooks/1' };

interface Endpoint {
  id: string;
  url: string;
  path: string;
  secret: string;
}

interface Variant {
  id: VariantId;
  label: string;
  organizationId: string;
  endpoints: Endpoint[];
  resolves: boolean;
}

interface World {
  databaseName: string;
  sql: postgres.Sql;
  runtime: Runtime;
  dns: Worker;
  dnsAddress: string;
  sink: Worker;
  sinkPort: number;
  serviceEnv: Record<string, string>;
  variants: Variant[];
}

async function setUp(): Promise<World> {
  const { url: databaseUrl, name: databaseName } = await createDatabase();
  const dns = forkWorker('dns', 'loopback-peer.ts', {});
  const { dns: dnsAddress } = await dns.receive<{ dns: string; smtpPort: number }>(30_000);
  const names = [HOST, ...Array.from({ length: settings.endpoints }, (_, i) => spreadHost(i + 1))];
  await dns.ask({ op: 'records', a: names.map((name) => [name, '127.0.0.1']) });
  const sink = forkWorker('sink', 'webhook-sink.ts', {});
  const { port: sinkPort } = await sink.receive<{ port: number }>(30_000);
  log(`loopback DNS (dns2) on ${dnsAddress}: ${HOST} and ${settings.endpoints} more names -> 127.0.0.1; receiver on 127.0.0.1:${sinkPort}`);

  const serviceEnv = {
    DATABASE_URL: databaseUrl,
    DNS_SERVERS: dnsAddress,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
  };
  const runtime = await createRuntime(
    loadConfig({ ...serviceEnv, NODE_ENV: 'production', DATA_DIR: dataDir, ROLES: 'web', BETTER_AUTH_SECRET: randomBytes(32).toString('hex') }),
    { runner: false },
  );
  onCleanup(() => stopRuntime(runtime));
  const sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  onCleanup(() => sql.end({ timeout: 2 }));

  const deps = runtime.deps;
  const makeVariant = async (id: VariantId, label: string, targets: Array<{ url: string; path: string }>, resolves: boolean): Promise<Variant> => {
    const { organizationId, apiKey } = await createOrganizationWithKey(deps, { name: `Bench ${id}`, ownerEmail: `owner-${id}@bench.example`, plan: '500k' });
    const admission = await admitApiKey(deps, apiKey);
    if (!admission) throw new Error('the seeded key does not authenticate');
    const endpoints: Endpoint[] = [];
    // The service's own createWebhook: the URL checked (and resolved) as an API call would.
    for (const target of targets) {
      const created = await createWebhook(deps, admission.principal, { url: target.url, events: [EVENT_TYPE] });
      endpoints.push({ id: created.id, url: created.url, path: target.path, secret: created.secret });
    }
    return { id, label, organizationId, endpoints, resolves };
  };
  const variants: Variant[] = [];
  for (const id of settings.variants) {
    if (id === 'dns') variants.push(await makeVariant(id, `1 endpoint, ${HOST} via DNS`, [{ url: `http://${HOST}:${sinkPort}/hook`, path: '/hook' }], true));
    if (id === 'ip') variants.push(await makeVariant(id, '1 endpoint, 127.0.0.1 (no DNS)', [{ url: `http://127.0.0.1:${sinkPort}/hook/ip`, path: '/hook/ip' }], false));
    if (id === 'spread') {
      const targets = Array.from({ length: settings.endpoints }, (_, i) => ({ url: `http://${spreadHost(i + 1)}:${sinkPort}/hook/${i + 1}`, path: `/hook/${i + 1}` }));
      variants.push(await makeVariant(id, `${settings.endpoints} endpoints via DNS`, targets, true));
    }
  }
  log(`created ${variants.length} organizations with ${variants.reduce((n, v) => n + v.endpoints.length, 0)} endpoints (createWebhook) subscribed to ${EVENT_TYPE}`);
  return { databaseName, sql, runtime, dns, dnsAddress, sink, sinkPort, serviceEnv, variants };
}

/** The data of an email.delivered event, as recordEmailEvents writes it. */
function eventData(i: number): Record<string, unknown> {
  const to = `customer${i}@rcpt.example.net`;
  return {
    emailId: newId(),
    mode: 'live',
    from: 'Shop Example <orders@shop.example.com>',
    to: [to],
    subject: `Your receipt #${100_000 + i}`,
    tags: [
      { name: 'type', value: 'receipt' },
      { name: 'campaign', value: `c${i % 7}` },
    ],
    recipient: to,
  };
}

/**
 * CPU ms of the Postgres processes that work for this run: the backends (and autovacuum workers)
 * of its database and the server's own processes (WAL writer, checkpointer...), not the backends
 * of other databases, which other people's tests may be using on the same server meanwhile.
 */
function ourPostgresMs(databaseName: string): Map<number, number> {
  const ours = new Map<number, number>();
  for (const [pid, ms] of postgresCpuMs()) {
    let title = '';
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const clientBackend = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(title);
    if (title.includes(databaseName) || (!clientBackend && !title.includes('autovacuum worker'))) ours.set(pid, ms);
  }
  return ours;
}

function postgresWindow(databaseName: string): () => number {
  const before = ourPostgresMs(databaseName);
  return () => {
    let total = 0;
    for (const [pid, ms] of ourPostgresMs(databaseName)) total += ms - (before.get(pid) ?? 0);
    return total;
  };
}

/**
 * The deliveries' row updates (claim, outcome) so far, and how many were heap-only (HOT: no index
 * touched). Backends report their counts at most once a second, so this waits that long first.
 */
async function deliveryUpdates(world: World): Promise<{ updates: number; hot: number }> {
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const [row] = await world.sql<Array<{ updates: number; hot: number }>>`
    select n_tup_upd::int as updates, n_tup_hot_upd::int as hot from pg_stat_user_tables where relname = 'webhook_deliveries'`;
  return row ?? { updates: 0, hot: 0 };
}

/** Empties the event log (and with it every delivery and attempt), vacuumed and checkpointed. */
async function clearEvents(world: World): Promise<void> {
  await world.sql`truncate events cascade`;
  await world.sql`vacuum (analyze) events, webhook_deliveries, webhook_attempts, webhooks`;
  await world.sql`checkpoint`;
}

/**
 * Queues `deliveries` deliveries for the variant's organization with the service's logEvents (one
 * per endpoint per event), then vacuums and checkpoints so the measure does not pay for the seeding.
 */
async function seed(world: World, variant: Variant, deliveries: number): Promise<number> {
  const started = Date.now();
  const events = Math.ceil(deliveries / variant.endpoints.length);
  const deps = world.runtime.deps;
  for (let first = 0; first < events; first += settings.seedBatch) {
    const now = deps.clock.now();
    const rows: EventRow[] = Array.from({ length: Math.min(settings.seedBatch, events - first) }, (_, k) => ({
      id: newId(),
      organizationId: variant.organizationId,
      type: EVENT_TYPE,
      data: eventData(first + k),
      createdAt: now,
    }));
    await logEvents(deps.db, deps, rows);
  }
  const [row] = await world.sql<Array<{ n: number }>>`select count(*)::int as n from webhook_deliveries where status = 'pending'`;
  const queued = row!.n;
  if (queued !== events * variant.endpoints.length) throw new Error(`seeding queued ${queued} deliveries, expected ${events * variant.endpoints.length}`);
  await world.sql`vacuum (analyze) events, webhook_deliveries`;
  await world.sql`checkpoint`;
  log(`${variant.id}: ${events} events logged with logEvents -> ${queued} pending deliveries in ${Date.now() - started} ms`);
  return queued;
}

/* ------------------------------------------------------------------ measures ------------------ */

interface Figure {
  kind: 'service' | 'bare';
  variant: string;
  concurrency: string;
  requests: number;
  seconds: number;
  perSecond: number;
  senderCpuMsPerRequest: number | null;
  postgresCpuMsPerRequest: number | null;
  receiverCpuMsPerRequest: number | null;
  dnsCpuMsPerRequest: number | null;
  otherCores: number | null;
  receiverConnections: number;
  dnsQueries: number;
  /** Per request: the DNS lookup (if any), the POST and its answer (service: duration_ms of the recorded attempts). */
  requestP50Ms: number;
  requestP99Ms: number;
  checks: string;
  note?: string;
}

/** Received signatures verify with the endpoint's secret, and name an event of the log. */
async function checkSignatures(world: World, variant: Variant, samples: SinkSample[]): Promise<string> {
  if (samples.length === 0) throw new Error(`${variant.id}: the receiver kept no request`);
  for (const sample of samples) {
    const endpoint = variant.endpoints.find((e) => e.path === sample.path);
    if (!endpoint) throw new Error(`${variant.id}: a request reached ${sample.path}, which is no endpoint of the variant`);
    const payload = new Webhook(endpoint.secret).verify(sample.body, sample.headers) as { type?: string; data?: Record<string, unknown> };
    if (payload.type !== EVENT_TYPE || payload.data?.mode !== 'live' || typeof payload.data.emailId !== 'string') {
      throw new Error(`${variant.id}: a delivered body is not the event: ${sample.body.slice(0, 200)}`);
    }
    const [event] = await world.sql<Array<{ type: string }>>`select type from events where id = ${sample.headers['webhook-id']!}`;
    if (event?.type !== EVENT_TYPE) throw new Error(`${variant.id}: webhook-id ${sample.headers['webhook-id']} is no event of the log`);
  }
  return `${samples.length} signatures verify`;
}

async function runService(world: World, worker: Worker, variant: Variant, count: number, measured: boolean): Promise<Figure | null> {
  const queued = await seed(world, variant, count);
  await world.sink.ask({ op: 'reset' });
  await world.dns.ask({ op: 'reset' });
  const limitMs = settings.seconds * 1000;
  log(`${measured ? '' : 'warm-up: '}service ${variant.id}: sweepWebhookDeliveries until ${queued} deliveries are made`);
  const updatesBefore = await deliveryUpdates(world);
  const window = cpuWindow({ worker: worker.child.pid, sink: world.sink.child.pid, dns: world.dns.child.pid });
  const postgresUsed = postgresWindow(world.databaseName);
  const run = await worker.ask<WebhookRun>({ op: 'run', limitMs }, limitMs + 90_000);
  const postgresMs = postgresUsed();
  const usage = window.end();
  const updatesAfter = await deliveryUpdates(world);
  const updates = { all: updatesAfter.updates - updatesBefore.updates, hot: updatesAfter.hot - updatesBefore.hot };
  const sink = await world.sink.ask<SinkStats>({ op: 'stats' });
  const dns = await world.dns.ask<PeerStats>({ op: 'stats' });
  const { samples } = await world.sink.ask<{ samples: SinkSample[] }>({ op: 'samples' });
  const statuses = await world.sql<Array<{ status: string; n: number }>>`select status, count(*)::int as n from webhook_deliveries group by status`;
  const byStatus = Object.fromEntries(statuses.map((row) => [row.status, row.n]));
  const [attempts] = await world.sql<Array<{ n: number; ok: number; deliveries: number; p50: number; p99: number }>>`
    select count(*)::int as n, count(*) filter (where succeeded and response_status = 200)::int as ok, count(distinct delivery_id)::int as deliveries,
      coalesce(percentile_cont(0.5) within group (order by duration_ms), 0)::float8 as p50,
      coalesce(percentile_cont(0.99) within group (order by duration_ms), 0)::float8 as p99 from webhook_attempts`;
  const delivered = byStatus.succeeded ?? 0;
  const problems: string[] = [];
  if (!run.timedOut && delivered !== queued) problems.push(`${delivered} of ${queued} succeeded (${JSON.stringify(byStatus)})`);
  // A sweep that reaches its 10 s budget returns without waiting for the attempts it started: the
  // next sweep does not count those, so the sweeps' own tally may fall a little short. Not above.
  if (run.handled > delivered || (run.outcomes.succeeded ?? 0) > delivered || Object.keys(run.outcomes).some((o) => o !== 'succeeded')) {
    problems.push(`the sweeps reported ${JSON.stringify(run)}, the database ${delivered} succeeded`);
  }
  if (sink.requests !== delivered || sink.distinct !== delivered || sink.repeated > 0) {
    problems.push(`the receiver got ${sink.requests} requests (${sink.distinct} distinct, ${sink.repeated} repeated) for ${delivered} succeeded`);
  }
  if (attempts!.n !== delivered || attempts!.ok !== delivered || attempts!.deliveries !== delivered) {
    problems.push(`${attempts!.n} attempts recorded (${attempts!.ok} with 200, of ${attempts!.deliveries} deliveries) for ${delivered} succeeded`);
  }
  if (variant.resolves && dns.dnsQueries < 2 * delivered) problems.push(`only ${dns.dnsQueries} DNS queries for ${delivered} deliveries (A + AAAA each expected)`);
  if (!variant.resolves && dns.dnsQueries > 0) problems.push(`${dns.dnsQueries} DNS queries for an IP-literal endpoint`);
  if (problems.length > 0) throw new Error(`service ${variant.id}: ${problems.join('; ')}`);
  const signatures = await checkSignatures(world, variant, samples);
  await clearEvents(world);
  if (!measured) return null;

  const per = (ms: number | null | undefined) => (ms == null ? null : ms / delivered);
  const figure: Figure = {
    kind: 'service',
    variant: `service, ${variant.label}`,
    concurrency: variant.endpoints.length === 1 ? `${PER_ENDPOINT} (per endpoint)` : `${Math.min(WEBHOOK_CONCURRENCY, PER_ENDPOINT * variant.endpoints.length)} (per process)`,
    requests: delivered,
    seconds: run.ms / 1000,
    perSecond: delivered / (run.ms / 1000),
    senderCpuMsPerRequest: per(usage.processes.worker),
    postgresCpuMsPerRequest: per(postgresMs),
    receiverCpuMsPerRequest: per(usage.processes.sink),
    dnsCpuMsPerRequest: per(usage.processes.dns),
    otherCores: usage.otherCores,
    receiverConnections: sink.connections,
    dnsQueries: dns.dnsQueries,
    requestP50Ms: attempts!.p50,
    requestP99Ms: attempts!.p99,
    checks: `all ${delivered} succeeded, 1 attempt each, each received once; ${signatures}`,
    note: `${run.sweeps} sweeps; ${updates.hot} of ${updates.all} delivery row updates heap-only (HOT)${run.timedOut ? `; time-boxed at ${settings.seconds} s: ${delivered} of ${queued}` : ''}`,
  };
  log(`service ${variant.id}: ${delivered} delivered in ${figure.seconds.toFixed(2)} s = ${figure.perSecond.toFixed(0)}/s`);
  return figure;
}

interface BareSpec {
  label: string;
  concurrency: number;
  sign: boolean;
  resolve: boolean;
  /** Resolve through one resolver kept for the run (as the service does since its resolver cache), not a fresh one per request. */
  oneResolver?: boolean;
}

const BARE: BareSpec[] = [
  { label: 'bare undici', concurrency: PER_ENDPOINT, sign: false, resolve: false },
  { label: 'bare undici', concurrency: WEBHOOK_CONCURRENCY, sign: false, resolve: false },
  { label: 'bare undici + sign', concurrency: PER_ENDPOINT, sign: true, resolve: false },
  { label: 'bare undici + DNS + sign', concurrency: PER_ENDPOINT, sign: true, resolve: true },
  { label: 'bare undici + DNS (one resolver) + sign', concurrency: PER_ENDPOINT, sign: true, resolve: true, oneResolver: true },
];

async function runBare(world: World, bare: Worker, spec: BareSpec, count: number, body: string, secret: string, measured: boolean): Promise<Figure | null> {
  await world.sink.ask({ op: 'reset' });
  await world.dns.ask({ op: 'reset' });
  const job: BareWebhookJob = {
    op: 'run',
    count,
    port: world.sinkPort,
    path: '/bare',
    concurrency: spec.concurrency,
    body,
    headers: STATIC_HEADERS,
    sign: spec.sign ? secret : null,
    resolve: spec.resolve ? { host: HOST, dnsServers: [world.dnsAddress], oneResolver: spec.oneResolver === true } : null,
    idPrefix: `msg_bare_${randomBytes(4).toString('hex')}_`,
  };
  const label = `${spec.label}, ${spec.concurrency} in flight`;
  log(`${measured ? '' : 'warm-up: '}${label}: ${count} POSTs of ${Buffer.byteLength(body)} bytes`);
  const window = cpuWindow({ worker: bare.child.pid, sink: world.sink.child.pid, dns: world.dns.child.pid });
  const postgresUsed = postgresWindow(world.databaseName);
  const run = await bare.ask<BareWebhookRun>(job, 300_000);
  const postgresMs = postgresUsed();
  const usage = window.end();
  const sink = await world.sink.ask<SinkStats>({ op: 'stats' });
  const dns = await world.dns.ask<PeerStats>({ op: 'stats' });
  if (run.sent !== count || sink.requests !== count || sink.distinct !== count) {
    throw new Error(`${label}: ${run.sent} answered 2xx (${run.failed} failed, ${run.non2xx} non-2xx: ${run.firstError ?? 'no error'}), the receiver got ${sink.requests} (${sink.distinct} distinct)`);
  }
  if (spec.sign) {
    const { samples } = await world.sink.ask<{ samples: SinkSample[] }>({ op: 'samples' });
    for (const sample of samples) new Webhook(secret).verify(sample.body, sample.headers);
  }
  if (!measured) return null;
  const per = (ms: number | null | undefined) => (ms == null ? null : ms / count);
  const figure: Figure = {
    kind: 'bare',
    variant: spec.label,
    concurrency: String(spec.concurrency),
    requests: count,
    seconds: run.ms / 1000,
    perSecond: count / (run.ms / 1000),
    senderCpuMsPerRequest: per(usage.processes.worker),
    postgresCpuMsPerRequest: per(postgresMs),
    receiverCpuMsPerRequest: per(usage.processes.sink),
    dnsCpuMsPerRequest: per(usage.processes.dns),
    otherCores: usage.otherCores,
    receiverConnections: sink.connections,
    dnsQueries: dns.dnsQueries,
    requestP50Ms: run.p50Ms,
    requestP99Ms: run.p99Ms,
    checks: `all ${count} answered 200, each received once${spec.sign ? '; signatures verify' : ''}`,
  };
  log(`${label}: ${count} in ${figure.seconds.toFixed(2)} s = ${figure.perSecond.toFixed(0)}/s`);
  return figure;
}

/* ------------------------------------------------------------------ output -------------------- */

function printFigures(figures: Figure[]): { headline: Figure | null; bare: Figure | null; meets: boolean | null } {
  printTable(
    ['variant', 'in flight', 'requests', 's', 'per s', 'request ms p50/p99', 'sender CPU ms/req', 'pg CPU ms/req', 'receiver CPU ms/req', 'DNS CPU ms/req', 'conns', 'DNS queries', 'other procs (cores)'],
    figures.map((f) => [
      f.variant,
      f.concurrency,
      String(f.requests),
      f.seconds.toFixed(2),
      f.perSecond.toFixed(0),
      `${f.requestP50Ms.toFixed(1)} / ${f.requestP99Ms.toFixed(1)}`,
      fixed(f.senderCpuMsPerRequest, 3),
      fixed(f.postgresCpuMsPerRequest, 3),
      fixed(f.receiverCpuMsPerRequest, 3),
      fixed(f.dnsCpuMsPerRequest, 3),
      String(f.receiverConnections),
      String(f.dnsQueries),
      fixed(f.otherCores, 2),
    ]),
  );
  const bare = figures.find((f) => f.kind === 'bare' && f.variant === 'bare undici' && f.concurrency === String(PER_ENDPOINT)) ?? null;
  const bare64 = figures.find((f) => f.kind === 'bare' && f.variant === 'bare undici' && f.concurrency === String(WEBHOOK_CONCURRENCY)) ?? null;
  const share = (f: Figure, of: Figure | null) => (of ? `${((f.perSecond / of.perSecond) * 100).toFixed(0)} %` : 'n/a');
  let headline: Figure | null = null;
  let meets: boolean | null = null;
  for (const f of figures.filter((f) => f.kind === 'service')) {
    const ok = f.perSecond >= TARGETS.perSecond && (!bare || f.perSecond >= TARGETS.shareOfBare * bare.perSecond);
    console.log(
      `${f.variant}: ${f.perSecond.toFixed(0)} deliveries/s = ${share(f, bare)} of bare undici at ${PER_ENDPOINT} in flight, ${share(f, bare64)} of it at ${WEBHOOK_CONCURRENCY}` +
        ` (${f.perSecond >= TARGETS.perSecond ? 'meets' : 'BELOW'} ${TARGETS.perSecond}/s; ${bare && f.perSecond >= TARGETS.shareOfBare * bare.perSecond ? 'meets' : 'BELOW'} half of bare); ${f.note ?? ''}`,
    );
    if (!headline) {
      headline = f;
      meets = ok;
    }
  }
  // The floor of the same work per request: a lookup (A + AAAA) and a signature before each POST.
  const service = figures.find((f) => f.kind === 'service' && f.dnsQueries > 0);
  for (const floor of figures.filter((f) => f.kind === 'bare' && f.variant.includes('DNS'))) {
    if (!service) break;
    const cpu = service.senderCpuMsPerRequest != null && floor.senderCpuMsPerRequest != null ? ` (by sender CPU per request: ${(floor.senderCpuMsPerRequest / service.senderCpuMsPerRequest).toFixed(2)}x)` : '';
    console.log(`${service.variant}: ${(service.perSecond / floor.perSecond).toFixed(2)}x the floor of ${floor.variant}${cpu}`);
  }
  return { headline, bare, meets };
}

/* ------------------------------------------------------------------ main ---------------------- */

export async function runWebhooksSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  const world = await setUp();
  const report: Record<string, unknown> = { date: new Date().toISOString(), machine: machineInfo(), settings: { ...settings, targets: TARGETS, perEndpoint: PER_ENDPOINT, processSlots: WEBHOOK_CONCURRENCY } };
  const figures: Figure[] = [];

  if (world.variants.length > 0) {
    const worker = forkWorker('webhook-worker', 'webhook-worker.ts', world.serviceEnv, { profile: settings.profile });
    try {
      await worker.receive<{ ready: true }>(60_000);
      if (settings.warmup > 0) await runService(world, worker, world.variants[0]!, settings.warmup, false);
      for (const variant of world.variants) figures.push((await runService(world, worker, variant, settings.count, true))!);
    } finally {
      await worker.stop();
    }
  }

  // The floor: a body as large as the service's (the same event data, as payloadOf writes it).
  const body = payloadOf({ id: newId(), type: EVENT_TYPE, createdAt: new Date(), data: eventData(settings.count - 1) });
  const secret = world.variants[0]?.endpoints[0]?.secret ?? `whsec_${randomBytes(32).toString('base64')}`;
  const bare = forkWorker('bare-webhooks', 'bare-webhooks.ts', {});
  try {
    await bare.receive<{ ready: true }>(30_000);
    if (settings.warmup > 0) await runBare(world, bare, BARE[0]!, settings.warmup, body, secret, false);
    for (const spec of BARE) figures.push((await runBare(world, bare, spec, settings.count, body, secret, true))!);
  } finally {
    await bare.stop();
  }

  const { headline, bare: floor, meets } = printFigures(figures);
  const busiest = Math.max(0, ...figures.map((f) => f.otherCores ?? 0));
  if (busiest > 0.2) {
    console.log(
      `WARNING: other processes used up to ${busiest.toFixed(2)} of ${os.cpus().length} cores during a measured run; ` +
        'rates are then low and not comparable (CPU ms per request holds up better). Re-run on a quiet machine.',
    );
  }
  report.figures = figures;
  report.headline = headline && {
    variant: headline.variant,
    deliveriesPerSecond: Math.round(headline.perSecond),
    bareUndiciPerSecond: floor ? Math.round(floor.perSecond) : null,
    shareOfBare: floor ? Math.round((headline.perSecond / floor.perSecond) * 1000) / 1000 : null,
    meetsTargets: meets,
  };
  report.wallSeconds = Math.round((Date.now() - started) / 100) / 10;
  writeResult('webhooks-latest.json', report);
  log(`wrote bench/results/webhooks-latest.json (${report.wallSeconds} s)`);
}
