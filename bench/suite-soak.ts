/**
 * `BENCH_SUITE=soak npm run bench`: the built service under a steady open-loop mix of sends and
 * reads for BENCH_SOAK_DURATION seconds, delivering everything it accepts into a loopback SMTP
 * sink meanwhile, then checked: no errors, every accepted email reached the sink exactly once (by
 * the id in its Message-ID), the database agrees, and the RSS of the service did not grow. Before
 * it, the same generator at the same rate against bench/bare-emails-server.ts for
 * BENCH_SOAK_BASELINE seconds: the floor, measured in the same run. docs/benchmarks.md has the
 * knobs and figures; results in bench/results/soak-latest.json.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { loadConfig } from '../server/config';
import { createRuntime, stopRuntime } from '../server/runtime';
import { admitApiKey } from '../server/services/api-keys/admission';
import { registerDomain } from '../server/services/domains/crud';
import { OPERATOR } from '../server/services/audit/record';
import { createOrganizationWithKey, setRateLimit, setReviewed } from '../server/services/organizations/organizations';
import {
  cpuWindow,
  createDatabase,
  dataDir,
  fixed,
  forkWorker,
  int,
  log,
  machineInfo,
  noteLoadAverage,
  onCleanup,
  printTable,
  sleep,
  startServer,
  runGeneratorChild,
  stopChild,
  writeResult,
  type CpuUsage,
  type Worker,
} from './harness';
import type { IdTally, PeerStats } from './loopback-peer';
import { OPS, type PhaseFigures, type SoakJob, type SoakMessage, type SoakOp, type SoakOrg } from './soak-load';
import { rssKbOf, startBuiltService, type ServiceLog } from './soak-service';
import { HTML, MAIL_HOST, RECIPIENT_DOMAIN, RECIPIENT_MX, TEXT } from './suite-emails';

function parseMix(text: string): Record<SoakOp, number> {
  const mix = Object.fromEntries(OPS.map((op) => [op, 0])) as Record<SoakOp, number>;
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [op, weight] = part.split(':');
    if (!(OPS as readonly string[]).includes(op!) || !/^\d+$/.test(weight ?? '')) throw new Error(`BENCH_SOAK_MIX: "${part}" is not <${OPS.join('|')}>:<weight>`);
    mix[op as SoakOp] = Number(weight);
  }
  if (mix.detail > 0 && mix.single + mix.batch === 0) throw new Error('BENCH_SOAK_MIX: detail reads need sends to read');
  return mix;
}

const settings = {
  organizations: int('BENCH_SOAK_ORGS', 10),
  durationSeconds: int('BENCH_SOAK_DURATION', 600),
  rate: int('BENCH_SOAK_RATE', 250),
  // The first minute is a transient: V8 grows its heap to its working size (RSS ~220 → ~330 MB in
  // 70 s) and the emails table gets its first ANALYZE (the delivery backlog clears then). RSS "at
  // start" is read when the warm-up ends, so it must end after that.
  warmupSeconds: int('BENCH_SOAK_WARMUP', 60),
  baselineSeconds: int('BENCH_SOAK_BASELINE', 30),
  baselineWarmupSeconds: 5,
  drainSeconds: int('BENCH_SOAK_DRAIN', 120),
  batchSize: int('BENCH_SOAK_BATCH', 10),
  // 4 s of arrivals at the default rate: far beyond any healthy backlog, small enough to stay a client.
  maxOutstanding: int('BENCH_SOAK_MAX_OUTSTANDING', 1000),
  sampleSeconds: int('BENCH_SOAK_SAMPLE', 5),
  /** Only when the server's autovacuum is off: VACUUM (ANALYZE) in its place this often (0 = never). */
  vacuumSeconds: int('BENCH_SOAK_VACUUM', 60, 0),
  timeoutMs: 30_000,
  mix: parseMix(process.env.BENCH_SOAK_MIX || 'single:40,batch:10,list:30,detail:20'),
  delivery: (() => {
    const value = process.env.BENCH_SOAK_DELIVERY || 'mx';
    if (value !== 'mx' && value !== 'relay') throw new Error(`BENCH_SOAK_DELIVERY: use mx or relay (got "${value}")`);
    return value;
  })(),
  rateLimit: 1_000_000,
  rssTolerance: 0.1,
};

export const soakDeadlineMs = () =>
  (240 + // database, organizations, both servers' start-up and priming
    settings.baselineWarmupSeconds + settings.baselineSeconds +
    settings.warmupSeconds + settings.durationSeconds +
    2 * (settings.timeoutMs / 1000 + 30) + // the last requests of each load run
    settings.drainSeconds +
    120) * // the checks, cleanup
  1000;

/* ------------------------------------------------------------------ setup --------------------- */

interface World {
  sql: postgres.Sql;
  peer: Worker;
  dns: string;
  smtpPort: number;
  databaseUrl: string;
  /** The seeding runtime seals the DKIM keys with it; the service must open them with the same. */
  encryptionKey: string;
  orgs: Array<SoakOrg & { organizationId: string }>;
}

async function setUp(): Promise<World> {
  const { url: databaseUrl } = await createDatabase();
  const peer = forkWorker('peer', 'loopback-peer.ts', {});
  const { dns, smtpPort } = await peer.receive<{ dns: string; smtpPort: number }>(30_000);
  await peer.ask({ op: 'records', mx: [[RECIPIENT_DOMAIN, RECIPIENT_MX]], a: [[RECIPIENT_MX, '127.0.0.1']] });
  await peer.ask({ op: 'track-ids' });
  log(`loopback DNS on ${dns}, SMTP sink on 127.0.0.1:${smtpPort}`);

  // The service's own functions seed (and migrate) the database; the runtime goes once it is done.
  const encryptionKey = randomBytes(32).toString('base64');
  const runtime = await createRuntime(
    loadConfig({ DATABASE_URL: databaseUrl, DNS_SERVERS: dns, ENCRYPTION_KEY: encryptionKey, NODE_ENV: 'production', DATA_DIR: dataDir, ROLES: 'web', BETTER_AUTH_SECRET: randomBytes(32).toString('hex') }),
    { runner: false },
  );
  const orgs: World['orgs'] = [];
  try {
    for (let i = 0; i < settings.organizations; i++) {
      // Settled and reviewed on the top volume: the soak measures sending, not the daily ceiling or the review hold.
      const { organizationId, apiKey } = await createOrganizationWithKey(runtime.deps, { name: `Soak org ${i}`, ownerEmail: `owner${i}@soak.example`, plan: '2m', createdAt: new Date(Date.now() - 60 * 86_400_000) });
      await setRateLimit(runtime.deps, organizationId, settings.rateLimit, OPERATOR);
      await setReviewed(runtime.deps, organizationId, true, OPERATOR);
      const admission = await admitApiKey(runtime.deps, apiKey);
      if (!admission) throw new Error('the seeded key does not authenticate');
      const name = `soak${i}.example.com`;
      await registerDomain(runtime.deps, admission.principal, { name });
      orgs.push({ organizationId, key: apiKey, from: `Shop ${i} <orders@${name}>`, seedIds: [] });
    }
  } finally {
    await stopRuntime(runtime);
  }
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  onCleanup(() => sql.end({ timeout: 2 }));
  // Verified as a DNS check would leave them, with no check chain pending.
  await sql`update domains set status = 'verified', verified_at = now(), chain_started_at = null, next_check_at = null, failure_reason = null,
    record_statuses = '{"DKIM":"verified","MX":"verified","SPF":"verified","DMARC":"verified"}'::jsonb`;
  log(`seeded ${orgs.length} organizations, each with a live key, a rate limit of ${settings.rateLimit} and a verified domain`);
  return { sql, peer, dns, smtpPort, databaseUrl, encryptionKey, orgs };
}

/** One send per organization, checked: the ids the first detail reads ask for. */
async function prime(port: number, world: World): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, org] of world.orgs.entries()) {
    const response = await fetch(`http://127.0.0.1:${port}/api/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: org.from, to: [`prime${i}@${RECIPIENT_DOMAIN}`], subject: 'Soak priming', html: HTML, text: TEXT }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as { id?: string };
    if (response.status !== 200 || !body.id) throw new Error(`POST /api/emails answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    org.seedIds = [body.id];
    ids.push(body.id);
  }
  return ids;
}

interface VacuumStandIn {
  autovacuum: string;
  runs: number;
  longestMs: number;
  totalMs: number;
}

/**
 * Production Postgres runs autovacuum; this machine's CI configuration turns it off. Without it
 * the emails table is never analyzed, the service's prepared statements keep the generic plans
 * they were given while it was nearly empty (a sequential scan of emails in every dispatch claim
 * and outcome write), and delivery falls further behind by the minute. So while it is off, the
 * suite does autovacuum's job: VACUUM (ANALYZE) of the database every BENCH_SOAK_VACUUM seconds,
 * throttled as autovacuum is (cost delay 2 ms, cost limit 200).
 */
async function startVacuumStandIn(databaseUrl: string): Promise<{ report: VacuumStandIn; /** Whether a run was under way since the last call. */ busy: () => boolean; stop: () => Promise<void> }> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { vacuum_cost_delay: 2, vacuum_cost_limit: 200 } });
  onCleanup(() => client.end({ timeout: 2 }));
  const [row] = await client<Array<{ autovacuum: string }>>`show autovacuum`;
  const report: VacuumStandIn = { autovacuum: row!.autovacuum, runs: 0, longestMs: 0, totalMs: 0 };
  if (report.autovacuum === 'on' || settings.vacuumSeconds === 0) return { report, busy: () => false, stop: () => client.end({ timeout: 2 }) };
  log(`autovacuum is off on this Postgres: the suite runs VACUUM (ANALYZE) every ${settings.vacuumSeconds} s in its place`);
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let ranSinceAsked = false;
  const timer = setInterval(() => {
    running = running.then(async () => {
      const started = Date.now();
      busy = true;
      await client.unsafe('vacuum (analyze)').finally(() => {
        busy = false;
        ranSinceAsked = true;
      });
      const ms = Date.now() - started;
      Object.assign(report, { runs: report.runs + 1, longestMs: Math.max(report.longestMs, ms), totalMs: report.totalMs + ms });
    }).catch((error: unknown) => log(`vacuum failed: ${String(error)}`));
  }, settings.vacuumSeconds * 1000);
  onCleanup(async () => clearInterval(timer));
  return {
    report,
    busy: () => {
      const answer = busy || ranSinceAsked;
      ranSinceAsked = false;
      return answer;
    },
    stop: async () => {
      clearInterval(timer);
      await running;
      await client.end({ timeout: 2 });
    },
  };
}

/* ------------------------------------------------------------------ load ---------------------- */

type Finished = Extract<SoakMessage, { done: true; ok: true }>;

async function runGenerator(job: SoakJob, onMessage: (message: SoakMessage) => void): Promise<Finished & { pid: number }> {
  const budgetMs = (job.warmupSeconds + job.durationSeconds + job.timeoutMs / 1000 + 30) * 1000;
  const result = await runGeneratorChild<SoakMessage, Extract<SoakMessage, { done: true }>>('soak-load.ts', job, budgetMs, (message) => 'done' in message, onMessage);
  if (!result.ok) throw new Error(`load generator failed: ${result.error}`);
  return result;
}

const jobFor = (port: number, world: World, warmupSeconds: number, durationSeconds: number, collectIds: boolean): SoakJob => ({
  origin: `http://127.0.0.1:${port}`,
  orgs: world.orgs.map(({ key, from, seedIds }) => ({ key, from, seedIds })),
  rate: settings.rate,
  warmupSeconds,
  durationSeconds,
  mix: settings.mix,
  batchSize: settings.batchSize,
  maxOutstanding: settings.maxOutstanding,
  timeoutMs: settings.timeoutMs,
  recipientDomain: RECIPIENT_DOMAIN,
  html: HTML,
  text: TEXT,
  collectIds,
});

interface LoadRun {
  warmup: PhaseFigures;
  measured: PhaseFigures;
  firstErrors: string[];
  usage: CpuUsage | null;
}

async function baseline(world: World): Promise<LoadRun> {
  log(`baseline: bench/bare-emails-server.ts, ${settings.baselineWarmupSeconds} s warm-up + ${settings.baselineSeconds} s at ${settings.rate} req/s`);
  const { child, port } = await startServer({ id: 'bare', script: 'bare-emails-server.ts', env: { DATABASE_URL: world.databaseUrl, BENCH_POOL_SIZE: '10' } });
  try {
    await prime(port, world);
    let window: ReturnType<typeof cpuWindow> | null = null;
    const result = await runGenerator(jobFor(port, world, settings.baselineWarmupSeconds, settings.baselineSeconds, false), (message) => {
      if ('phase' in message) window = cpuWindow({ server: child.pid });
    });
    const usage = (window as ReturnType<typeof cpuWindow> | null)?.end(result.measured.cpuMs) ?? null;
    return { warmup: result.warmup, measured: result.measured, firstErrors: result.firstErrors, usage };
  } finally {
    await stopChild(child);
    // The bare server stores queued emails; the service's runner must not deliver them.
    await world.sql`truncate emails cascade`;
  }
}

interface Sample {
  atSeconds: number;
  rssKb: number | null;
  /** Emails answered with an id but not yet at the sink (the generator reports its count every second). */
  backlog: number;
  outstanding: number;
  /** The slowest answer since the previous sample. */
  worstLatencyMs: number;
  /** A VACUUM (ANALYZE) of the stand-in ran since the previous sample. */
  vacuuming: boolean;
}

interface SoakRun extends LoadRun {
  vacuum: VacuumStandIn;
  accepted: string[];
  samples: Sample[];
  rssStartKb: number | null;
  rssEndKb: number | null;
  rssAfterDrainKb: number | null;
  drainSeconds: number;
  drained: boolean;
  serviceLog: ServiceLog;
}

async function soak(world: World): Promise<SoakRun> {
  const delivery: Record<string, string> =
    settings.delivery === 'relay'
      ? { SMTP_RELAY_URL: `smtp://127.0.0.1:${world.smtpPort}` }
      : { SMTP_MX_PORT: String(world.smtpPort), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' };
  await world.peer.ask({ op: 'reset' });
  const { child, port, log: serviceLog } = await startBuiltService({
    DATABASE_URL: world.databaseUrl,
    DNS_SERVERS: world.dns,
    ENCRYPTION_KEY: world.encryptionKey,
    MAIL_HOST,
    ...delivery,
  });
  const pid = child.pid!;
  const started = Date.now();
  const vacuum = await startVacuumStandIn(world.databaseUrl);
  log(`service: node dist/server/main.mjs (pid ${pid}) on 127.0.0.1:${port}, delivering by ${settings.delivery === 'relay' ? 'relay' : 'direct MX'} to the sink`);
  try {
    const accepted = await prime(port, world);
    let progress = { accepted: 0, outstanding: 0, worstMs: 0 };
    let worstSinceSample = 0;
    const samples: Sample[] = [];
    const sample = async () => {
      const stats = await world.peer.ask<PeerStats>({ op: 'stats' });
      samples.push({
        atSeconds: Math.round((Date.now() - started) / 100) / 10,
        rssKb: rssKbOf(pid),
        backlog: Math.max(0, accepted.length + progress.accepted - stats.messages),
        outstanding: progress.outstanding,
        worstLatencyMs: worstSinceSample,
        vacuuming: vacuum.busy(),
      });
      worstSinceSample = 0;
    };
    let sampling: Promise<unknown> = Promise.resolve();
    const sampler = setInterval(() => (sampling = sampling.then(sample).catch(() => undefined)), settings.sampleSeconds * 1000);
    onCleanup(async () => clearInterval(sampler));

    log(`soak: ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s at ${settings.rate} req/s (${OPS.map((op) => `${op} ${settings.mix[op]}`).join(', ')}; batches of ${settings.batchSize})`);
    let window: ReturnType<typeof cpuWindow> | null = null;
    let rssStartKb: number | null = null;
    let measureStartedAt = 0;
    const result = await runGenerator(jobFor(port, world, settings.warmupSeconds, settings.durationSeconds, true), (message) => {
      if ('progress' in message) {
        progress = message.progress;
        worstSinceSample = Math.max(worstSinceSample, progress.worstMs);
      } else {
        rssStartKb = rssKbOf(pid);
        measureStartedAt = samples.length;
        serviceLog.measuring = true;
        window = cpuWindow({ server: pid, peer: world.peer.child.pid });
        log(`soak: warm-up over, RSS ${fixed((rssStartKb ?? NaN) / 1024, 1)} MB; measuring`);
      }
    });
    serviceLog.measuring = false;
    const usage = (window as ReturnType<typeof cpuWindow> | null)?.end(result.measured.cpuMs) ?? null;
    const rssEndKb = rssKbOf(pid);
    // Not push(...ids): a ten-minute run answers some 200,000 ids, more arguments than a call takes.
    for (const id of result.ids) accepted.push(id);
    const measuredSamples = samples.length;
    log(`soak: load over; ${accepted.length} emails accepted; waiting up to ${settings.drainSeconds} s for the sink to have them all`);

    const drainStarted = Date.now();
    let drained = false;
    while (Date.now() - drainStarted < settings.drainSeconds * 1000) {
      const stats = await world.peer.ask<PeerStats>({ op: 'stats' });
      if (stats.messages >= accepted.length) {
        drained = true;
        break;
      }
      await sleep(500);
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    // A duplicate delivery would come right behind the first; give it a moment to show.
    await sleep(3_000);
    clearInterval(sampler);
    await sampling;
    await vacuum.stop();
    return {
      vacuum: vacuum.report,
      warmup: result.warmup,
      measured: result.measured,
      firstErrors: result.firstErrors,
      usage,
      accepted,
      samples: samples.slice(measureStartedAt, measuredSamples),
      rssStartKb,
      rssEndKb,
      rssAfterDrainKb: rssKbOf(pid),
      drainSeconds,
      drained,
      serviceLog,
    };
  } finally {
    await stopChild(child, 15_000);
  }
}

/* ------------------------------------------------------------------ checks -------------------- */

interface Delivery {
  accepted: number;
  reached: number;
  missing: number;
  duplicates: number;
  /** At the sink but never answered with an id (stored after a client-side error). */
  unexpected: number;
  unmatched: number;
  byStatus: Record<string, number>;
  dbRows: number;
  dbNotAccepted: number;
  acceptedNotInDb: number;
  notDelivered: number;
  sendLagP50Ms: number | null;
  sendLagP99Ms: number | null;
  firstMissing: string[];
}

async function checkDelivery(world: World, accepted: string[]): Promise<Delivery> {
  const tally = await world.peer.ask<IdTally>({ op: 'ids' }, 120_000);
  const acceptedSet = new Set(accepted);
  const seen = new Set(tally.ids);
  const missing = accepted.filter((id) => !seen.has(id));
  const rows = await world.sql<Array<{ id: string; status: string }>>`select id::text as id, status from emails`;
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  const dbIds = new Set(rows.map((row) => row.id));
  const [lag] = await world.sql<Array<{ p50: number | null; p99: number | null }>>`
    select percentile_cont(0.5) within group (order by extract(epoch from sent_at - created_at)) * 1000 as p50,
           percentile_cont(0.99) within group (order by extract(epoch from sent_at - created_at)) * 1000 as p99
    from emails where sent_at is not null`;
  return {
    accepted: accepted.length,
    reached: accepted.length - missing.length,
    missing: missing.length,
    duplicates: tally.repeated.filter(([id]) => acceptedSet.has(id)).length,
    unexpected: tally.ids.filter((id) => !acceptedSet.has(id)).length,
    unmatched: tally.unmatched,
    byStatus,
    dbRows: rows.length,
    dbNotAccepted: rows.filter((row) => !acceptedSet.has(row.id)).length,
    acceptedNotInDb: accepted.filter((id) => !dbIds.has(id)).length,
    notDelivered: rows.filter((row) => acceptedSet.has(row.id) && row.status !== 'delivered').length,
    sendLagP50Ms: lag?.p50 ?? null,
    sendLagP99Ms: lag?.p99 ?? null,
    firstMissing: missing.slice(0, 10),
  };
}

/* ------------------------------------------------------------------ output -------------------- */

const mb = (kb: number | null | undefined) => fixed(kb == null ? null : kb / 1024, 1);
const ms = (value: number | null) => (value === null ? 'n/a' : value.toFixed(1));
const cores = (cpuMs: number | null | undefined, usage: CpuUsage | null) => fixed(cpuMs == null || !usage ? null : cpuMs / usage.elapsedMs, 2);

function printLoad(title: string, run: LoadRun): void {
  const m = run.measured;
  console.log(`\n${title}: ${m.offered} requests due in ${m.seconds} s (${(m.offered / m.seconds).toFixed(0)}/s offered), ${m.accepted} emails accepted, ` +
    `peak ${m.peakOutstanding} in flight, generator late by at most ${m.maxFireLagMs} ms`);
  printTable(
    ['operation', 'count', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
    OPS.map((op) => [op, String(m.ops[op].count), ms(m.ops[op].p50Ms), ms(m.ops[op].p99Ms), ms(m.ops[op].maxMs), String(m.ops[op].errors)]),
  );
  const u = run.usage;
  if (u) {
    console.log(`CPU (cores, measured window): server ${cores(u.processes.server, u)}, postgres ${cores(u.postgresMs, u)}` +
      (u.processes.peer != null ? `, sink+DNS ${cores(u.processes.peer, u)}` : '') + `, generator ${cores(m.cpuMs, u)}, other procs ${fixed(u.otherCores, 2)}`);
  }
  const errors = run.warmup.errors + m.errors;
  console.log(`errors: ${errors}${errors > 0 ? ` (${JSON.stringify({ ...run.warmup.errorKinds, ...m.errorKinds })}); first: ${run.firstErrors.slice(0, 5).join(' | ')}` : ''}`);
}

interface RssFigures {
  withinTolerance: boolean | null;
  growth: number | null;
  /** Mean RSS of the first and the last minute of samples: a trend that one reading's noise cannot fake. */
  firstMinuteMeanKb: number | null;
  lastMinuteMeanKb: number | null;
}

function rssFigures(run: SoakRun): RssFigures {
  const perMinute = Math.max(1, Math.round(60 / settings.sampleSeconds));
  const mean = (kbs: Array<number | null>) => {
    const known = kbs.filter((kb): kb is number => kb !== null);
    return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
  };
  const trend = {
    firstMinuteMeanKb: mean(run.samples.slice(0, perMinute).map((s) => s.rssKb)),
    lastMinuteMeanKb: mean(run.samples.slice(-perMinute).map((s) => s.rssKb)),
  };
  if (run.rssStartKb === null || run.rssEndKb === null) return { withinTolerance: null, growth: null, ...trend };
  const growth = run.rssEndKb / run.rssStartKb - 1;
  return { withinTolerance: growth <= settings.rssTolerance, growth, ...trend };
}

/** One row per minute of the measured load (per sample when shorter), to see a trend or a spike at a glance. */
function printTimeline(samples: Sample[]): void {
  if (samples.length === 0) return;
  const span = samples.at(-1)!.atSeconds - samples[0]!.atSeconds;
  const perRow = span >= 180 ? Math.max(1, Math.round(60 / settings.sampleSeconds)) : 1;
  const rows: Sample[][] = [];
  for (let i = 0; i < samples.length; i += perRow) rows.push(samples.slice(i, i + perRow));
  printTable(
    ['t (s)', 'RSS max MB', 'backlog at end', 'slowest answer ms', 'vacuum running'],
    rows.map((group) => [
      group.at(-1)!.atSeconds.toFixed(0),
      mb(Math.max(...group.map((s) => s.rssKb ?? 0))),
      String(group.at(-1)!.backlog),
      String(Math.max(...group.map((s) => s.worstLatencyMs))),
      group.some((s) => s.vacuuming) ? 'yes' : '',
    ]),
  );
}

function printSoak(run: SoakRun, delivery: Delivery, bare: LoadRun): void {
  printLoad('service (node dist/server/main.mjs, embedded runner delivering)', run);
  const rss = run.samples.map((s) => s.rssKb).filter((kb): kb is number => kb !== null);
  const verdict = rssFigures(run);
  console.log(
    `RSS: ${mb(run.rssStartKb)} MB after the warm-up, ${mb(run.rssEndKb)} MB at the end of the load ` +
      `(${verdict.growth === null ? 'n/a' : `${(verdict.growth * 100).toFixed(1)} %`}: ${verdict.withinTolerance === null ? 'n/a' : verdict.withinTolerance ? 'within 10 %' : 'MORE THAN 10 %'}), ` +
      `${mb(run.rssAfterDrainKb)} MB after the drain; every ${settings.sampleSeconds} s: min ${mb(Math.min(...rss))} MB, max ${mb(Math.max(...rss))} MB over ${rss.length} samples`,
  );
  const backlog = run.samples.map((s) => s.backlog);
  console.log(`delivery backlog (accepted, not yet at the sink) every ${settings.sampleSeconds} s: max ${Math.max(0, ...backlog)}, last ${backlog.at(-1) ?? 'n/a'}; ` +
    `accepted → handed to the sink (sent_at - created_at): p50 ${ms(delivery.sendLagP50Ms)} ms, p99 ${ms(delivery.sendLagP99Ms)} ms`);
  if (verdict.firstMinuteMeanKb !== null && verdict.lastMinuteMeanKb !== null && run.samples.length >= 3 * (60 / settings.sampleSeconds)) {
    console.log(`RSS trend: mean of the first minute's samples ${mb(verdict.firstMinuteMeanKb)} MB, of the last minute's ${mb(verdict.lastMinuteMeanKb)} MB ` +
      `(${((verdict.lastMinuteMeanKb / verdict.firstMinuteMeanKb - 1) * 100).toFixed(1)} %)`);
  }
  printTimeline(run.samples);
  const serverMs = [...run.serviceLog.measuredServerMs].sort((a, b) => a - b);
  const at = (p: number) => (serverMs.length ? serverMs[Math.min(serverMs.length - 1, Math.ceil(p * serverMs.length) - 1)]! : null);
  console.log(`service log: ${run.serviceLog.measuredRequests} requests measured (handler time p50 ${ms(at(0.5))} ms, p99 ${ms(at(0.99))} ms, max ${ms(at(1))} ms), ` +
    `${run.serviceLog.warnings} warnings, ${run.serviceLog.errors} errors; ${run.serviceLog.dispatchSweeps} dispatch sweeps handled ${run.serviceLog.dispatchHandled} emails, longest ${run.serviceLog.dispatchMaxMs} ms`);
  for (const line of run.serviceLog.firstProblems.slice(0, 5)) console.log(`  ${line}`);
  const v = run.vacuum;
  console.log(`Postgres autovacuum: ${v.autovacuum}` +
    (v.autovacuum === 'on' ? '' : `; in its place VACUUM (ANALYZE) every ${settings.vacuumSeconds} s: ${v.runs} runs, longest ${(v.longestMs / 1000).toFixed(1)} s, ${(v.totalMs / 1000).toFixed(1)} s in all`));
  console.log(`\ndrained in ${run.drainSeconds.toFixed(1)} s${run.drained ? '' : ` (NOT within ${settings.drainSeconds} s)`}`);
  printTable(
    ['accepted', 'reached', 'missing', 'duplicates', 'unexpected', 'no Message-ID', 'db rows', 'db: accepted not delivered'],
    [[delivery.accepted, delivery.reached, delivery.missing, delivery.duplicates, delivery.unexpected, delivery.unmatched, delivery.dbRows, delivery.notDelivered].map(String)],
  );
  console.log(`database by status: ${JSON.stringify(delivery.byStatus)}`);
  printLoad(`bare baseline (bench/bare-emails-server.ts, same generator and rate, ${settings.baselineSeconds} s)`, bare);
  console.log('service vs bare, p50 / p99 ms:');
  printTable(
    ['operation', 'service p50', 'bare p50', 'service p99', 'bare p99'],
    OPS.map((op) => [op, ms(run.measured.ops[op].p50Ms), ms(bare.measured.ops[op].p50Ms), ms(run.measured.ops[op].p99Ms), ms(bare.measured.ops[op].p99Ms)]),
  );
}

function failures(run: SoakRun, delivery: Delivery, bare: LoadRun): string[] {
  const out: string[] = [];
  const serviceErrors = run.warmup.errors + run.measured.errors;
  if (serviceErrors > 0) out.push(`${serviceErrors} failed requests against the service`);
  if (bare.warmup.errors + bare.measured.errors > 0) out.push(`${bare.warmup.errors + bare.measured.errors} failed requests against the bare baseline`);
  if (delivery.missing > 0) out.push(`${delivery.missing} accepted emails never reached the sink (first: ${delivery.firstMissing.join(', ')})`);
  if (delivery.duplicates > 0) out.push(`${delivery.duplicates} emails reached the sink more than once`);
  if (delivery.unexpected > 0) out.push(`${delivery.unexpected} emails reached the sink that were never answered with an id`);
  if (delivery.unmatched > 0) out.push(`${delivery.unmatched} messages at the sink without a Message-ID of the form <emailId@domain>`);
  if (delivery.acceptedNotInDb > 0 || delivery.dbNotAccepted > 0) out.push(`the database holds ${delivery.dbRows} emails: ${delivery.acceptedNotInDb} accepted ones missing, ${delivery.dbNotAccepted} never answered`);
  if (delivery.notDelivered > 0) out.push(`${delivery.notDelivered} accepted emails are not 'delivered' in the database`);
  return out;
}

/* ------------------------------------------------------------------ main ---------------------- */

export async function runSoakSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  const world = await setUp();
  const bare = await baseline(world);
  const run = await soak(world);
  const delivery = await checkDelivery(world, run.accepted);
  printSoak(run, delivery, bare);
  const failed = failures(run, delivery, bare);
  const { accepted: _ids, serviceLog, ...soakFigures } = run;
  const { measuredServerMs: _ms, ...logFigures } = serviceLog;
  writeResult('soak-latest.json', {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings,
    soak: { ...soakFigures, serviceLog: logFigures, rss: rssFigures(run) },
    delivery,
    baseline: bare,
    failures: failed,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  });
  log(`wrote bench/results/soak-latest.json (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (rssFigures(run).withinTolerance === false) console.log(`WARNING: the service's RSS grew by more than ${settings.rssTolerance * 100} % over the measured run`);
  if (failed.length > 0) throw new Error(`soak failed:\n  ${failed.join('\n  ')}`);
  console.log('soak passed: no errors, every accepted email reached the sink exactly once, the database agrees');
}
