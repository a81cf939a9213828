/**
 * The default suite of `npm run bench`: how close the service's REST path comes to a bare
 * node:http + postgres-js server doing the same authenticated read (GET /api/api-keys).
 *
 *   1. creates a throwaway database eumail_bench_<random> on the local Postgres, migrates it and
 *      seeds BENCH_ORGS organizations, each with 1 + BENCH_EXTRA_KEYS keys and a rate limit
 *      raised out of the way;
 *   2. for each target, one at a time: starts it as a child process on 127.0.0.1, checks it
 *      answers the same body, forks bench/load.ts (autocannon) against it for a warm-up and a
 *      measured run, samples the CPU the server, Postgres and the load generator used, stops it;
 *   3. prints a table and writes bench/results/latest.json; bench/run.ts kills every child and
 *      drops the database, on success, failure, Ctrl-C or the overall deadline alike.
 *
 * Knobs (environment): BENCH_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_ORGS (200), BENCH_EXTRA_KEYS (4), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (3 s),
 * BENCH_TARGETS (rest,services,bare-rl-unprep,bare-rl,bare), BENCH_PROFILE=1 (writes --cpu-prof profiles of the servers to
 * bench/results/profiles; slows them down, so its figures are not the benchmark's),
 */
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import postgres from 'postgres';
import { migrate, openDatabase, type Database } from '../db/client';
import { systemClock } from '../server/clock';
import { issueApiKey } from '../server/services/api-keys/keys';
import { OPERATOR } from '../server/services/audit/record';
import { createOrganizationWithKey, setRateLimit } from '../server/services/organizations/organizations';
import { adminUrl, cpuWindow, createDatabase, fixed, int, log, machineInfo, noteLoadAverage, onCleanup, printTable, runLoad, startServer, stopChild, writeResult } from './harness';
import type { LoadSummary } from './load';

const settings = {
  adminUrl,
  organizations: int('BENCH_ORGS', 200),
  extraKeysPerOrganization: int('BENCH_EXTRA_KEYS', 4, 0),
  connections: int('BENCH_CONNECTIONS', 50),
  durationSeconds: int('BENCH_DURATION', 10),
  warmupSeconds: int('BENCH_WARMUP', 3),
  // The service's pool (db/client.ts openDatabase default, which createRuntime uses); the bare
  // servers are given the same.
  poolSize: 10,
  rateLimit: 1_000_000,
  profile: process.env.BENCH_PROFILE === '1',
  path: '/api/api-keys',
};

interface Target {
  id: string;
  description: string;
  script: string;
  env: Record<string, string>;
  /** Only when named in BENCH_TARGETS. */
  optional?: boolean;
}

// `rest` and `bare` are the benchmark; the three between them split the gap into its causes.
const TARGETS: Target[] = [
  { id: 'rest', description: 'the service REST path: createRequestListener without Next', script: 'rest-server.ts', env: {} },
  { id: 'services', description: 'node:http + the service functions (drizzle), no tRPC/trpc-to-openapi', script: 'services-server.ts', env: {} },
  {
    id: 'bare-rl-unprep',
    description: 'bare + rate-limit upsert, statements unnamed as drizzle sends them',
    script: 'bare-server.ts',
    env: { BARE_RATE_LIMIT: '1', BARE_PREPARE: '0' },
  },
  { id: 'bare-rl', description: 'bare + the same rate-limit upsert, prepared statements', script: 'bare-server.ts', env: { BARE_RATE_LIMIT: '1' } },
  { id: 'bare', description: 'bare node:http + postgres-js: key lookup + list, prepared', script: 'bare-server.ts', env: {} },
  // Not run unless named in BENCH_TARGETS: what the upsert costs when its commit skips the WAL flush.
  {
    id: 'bare-rl-async',
    description: 'bare-rl with synchronous_commit=off',
    script: 'bare-server.ts',
    env: { BARE_RATE_LIMIT: '1', BARE_SYNCHRONOUS_COMMIT: 'off' },
    optional: true,
  },
];

const selectedTargets = (() => {
  const wanted = (process.env.BENCH_TARGETS || TARGETS.filter((t) => !t.optional).map((t) => t.id).join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of wanted) if (!TARGETS.some((t) => t.id === id)) throw new Error(`BENCH_TARGETS: unknown target "${id}"`);
  return TARGETS.filter((t) => wanted.includes(t.id));
})();

/** Whole suite, seeding included; the defaults finish in about 90 s. */
export const apiKeysDeadlineMs = () => (60 + selectedTargets.length * (settings.warmupSeconds + settings.durationSeconds + 25)) * 1000;

/* ------------------------------------------------------------------ database ------------------ */

async function createAndSeed(): Promise<{ databaseUrl: string; keys: string[] }> {
  const { url: databaseUrl } = await createDatabase();
  let seedDatabase: Database | null = await openDatabase({ url: databaseUrl, poolSize: 8 });
  onCleanup(async () => seedDatabase?.close());
  await migrate(seedDatabase);
  const deps = { db: seedDatabase.db, clock: systemClock };
  const keys: string[] = new Array<string>(settings.organizations);
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < settings.organizations; i = next++) {
      const { organizationId, apiKey } = await createOrganizationWithKey(deps, {
        name: `Bench org ${i}`,
        ownerEmail: `owner${i}@bench.example`,
        plan: '100k',
      });
      await setRateLimit(deps, organizationId, settings.rateLimit, OPERATOR);
      for (let k = 0; k < settings.extraKeysPerOrganization; k++) {
        const sending = k % 2 === 1;
        await issueApiKey(deps.db, deps, {
          organizationId,
          name: `Extra key ${k}`,
          permission: sending ? 'sending_access' : 'full_access',
          mode: k === 3 ? 'test' : 'live',
          domainId: null,
        });
      }
      keys[i] = apiKey;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await seedDatabase.db.execute('analyze');
  await seedDatabase.close();
  seedDatabase = null;
  log(`seeded ${settings.organizations} organizations x ${1 + settings.extraKeysPerOrganization} keys in ${Date.now() - started} ms`);
  return { databaseUrl, keys };
}

async function committedTransactions(databaseUrl: string): Promise<number> {
  const admin = postgres(settings.adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<Array<{ n: string }>>`select xact_commit::text as n from pg_stat_database where datname = ${new URL(databaseUrl).pathname.slice(1)}`;
    return Number(row?.n ?? 0);
  } finally {
    await admin.end({ timeout: 2 });
  }
}

async function fetchList(port: number, key: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${port}${settings.path}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, body };
}

/* ------------------------------------------------------------------ main ---------------------- */

interface TargetResult {
  id: string;
  description: string;
  measured: LoadSummary;
  warmup: LoadSummary;
  serverCpuMsPerRequest: number | null;
  postgresCpuMsPerRequest: number | null;
  loadGeneratorCpuMsPerRequest: number | null;
  databaseTransactionsPerRequest: number | null;
  /** CPU that processes other than this target, its Postgres and autocannon used meanwhile, in cores. */
  otherCpuCores: number | null;
  sampleBody: unknown;
}

function printResults(results: TargetResult[], ratio: number | null): void {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'server CPU ms/req', 'pg CPU ms/req', 'autocannon CPU ms/req', 'other procs (cores)'];
  const rows = results.map((r) => [
    r.id,
    r.measured.requestsPerSecond.toFixed(0),
    String(r.measured.latencyP50Ms),
    String(r.measured.latencyP99Ms),
    String(r.measured.non2xx),
    String(r.measured.errors + r.measured.timeouts),
    fixed(r.serverCpuMsPerRequest, 3),
    fixed(r.postgresCpuMsPerRequest, 3),
    fixed(r.loadGeneratorCpuMsPerRequest, 3),
    fixed(r.otherCpuCores, 2),
  ]);
  printTable(header, rows);
  const busiest = Math.max(0, ...results.map((r) => r.otherCpuCores ?? 0));
  if (busiest > 0.2) {
    console.log(
      `WARNING: other processes used up to ${busiest.toFixed(2)} of ${os.cpus().length} cores during a measured run; ` +
        'requests/s are then not comparable between targets (CPU ms/request hold up better). Re-run on a quiet machine.',
    );
  }
  if (ratio !== null) {
    const verdict = ratio >= 1 / 3 ? 'meets' : 'BELOW';
    console.log(`REST / bare = ${(ratio * 100).toFixed(1)} % of the bare requests/s (${verdict} the target of at least 33.3 %)`);
  }
  console.log(
    `${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per target, ` +
      `${settings.organizations} organizations x ${1 + settings.extraKeysPerOrganization} keys, pool ${settings.poolSize}, ${os.cpus().length} CPUs` +
      (settings.profile ? ' (PROFILING: figures are not representative)' : ''),
  );
}

export async function runApiKeysSuite(): Promise<void> {
  const started = Date.now();
  noteLoadAverage();
  const { databaseUrl, keys } = await createAndSeed();
  const results: TargetResult[] = [];
  let referenceBody: unknown = undefined;

  for (const target of selectedTargets) {
    log(`${target.id}: starting (${target.description})`);
    const { child, port } = await startServer({
      id: target.id,
      script: target.script,
      profile: settings.profile,
      env: { DATABASE_URL: databaseUrl, BENCH_POOL_SIZE: String(settings.poolSize), ...target.env },
    });
    try {
      // Same answer from every target, and no error status, before any figure counts.
      const check = await fetchList(port, keys[0]!);
      if (check.status !== 200) throw new Error(`${target.id}: GET ${settings.path} answered ${check.status}: ${JSON.stringify(check.body)}`);
      const listed = (check.body as { data?: unknown[] }).data;
      if (!Array.isArray(listed) || listed.length !== 1 + settings.extraKeysPerOrganization) {
        throw new Error(`${target.id}: expected ${1 + settings.extraKeysPerOrganization} keys, got ${JSON.stringify(check.body)}`);
      }
      if (referenceBody === undefined) referenceBody = check.body;
      else if (!isDeepStrictEqual(referenceBody, check.body)) throw new Error(`${target.id}: answered a different body than ${results[0]?.id}`);

      // Started when the load generator says the measured run starts (after the warm-up).
      let window: ReturnType<typeof cpuWindow> | null = null;
      let transactionsBefore = 0;
      const measureStart = () => {
        window = cpuWindow({ server: child.pid });
        void committedTransactions(databaseUrl).then((n) => (transactionsBefore = n));
      };
      log(`${target.id}: listening on 127.0.0.1:${port}; ${settings.warmupSeconds} s warm-up, then ${settings.durationSeconds} s measured`);
      const load = await runLoad(
        { url: `http://127.0.0.1:${port}${settings.path}`, keys, connections: settings.connections, warmupSeconds: settings.warmupSeconds, durationSeconds: settings.durationSeconds },
        measureStart,
      );
      const usage = (window as ReturnType<typeof cpuWindow> | null)?.end(load.loadCpuMs ?? 0) ?? null;
      const transactions = (await committedTransactions(databaseUrl)) - transactionsBefore;
      const requests = load.measured.totalRequests || 1;
      const serverUsed = usage?.processes.server ?? null;
      results.push({
        id: target.id,
        description: target.description,
        measured: load.measured,
        warmup: load.warmup,
        serverCpuMsPerRequest: serverUsed !== null ? serverUsed / requests : null,
        postgresCpuMsPerRequest: usage && usage.postgresMs > 0 ? usage.postgresMs / requests : null,
        loadGeneratorCpuMsPerRequest: load.loadCpuMs !== null ? load.loadCpuMs / requests : null,
        // pg_stat_database counts with a delay of up to stats_fetch/flush interval; indicative only.
        databaseTransactionsPerRequest: transactions > 0 ? transactions / requests : null,
        otherCpuCores: usage?.otherCores ?? null,
        sampleBody: check.body,
      });
      const m = load.measured;
      log(`${target.id}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.latencyP50Ms} ms, p99 ${m.latencyP99Ms} ms, non-2xx ${m.non2xx}`);
    } finally {
      await stopChild(child);
    }
  }

  const rest = results.find((r) => r.id === 'rest');
  const bare = results.find((r) => r.id === 'bare');
  const ratio = rest && bare ? rest.measured.requestsPerSecond / bare.measured.requestsPerSecond : null;
  printResults(results, ratio);

  const report = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, adminUrl: undefined, targets: selectedTargets.map((t) => t.id) },
    results: results.map(({ sampleBody: _sampleBody, ...rest }) => rest),
    restOverBare: ratio,
    target: 1 / 3,
    targetMet: ratio === null ? null : ratio >= 1 / 3,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
  writeResult('latest.json', report);
  log(`wrote bench/results/latest.json (${report.wallSeconds} s)`);
}
