/**
 * `npm run bench`: how close the service's REST path comes to a bare node:http + postgres-js
 * server doing the same authenticated read (GET /api/api-keys).
 *
 *   1. creates a throwaway database eumail_bench_<random> on the local Postgres, migrates it and
 *      seeds BENCH_ORGS organizations, each with 1 + BENCH_EXTRA_KEYS keys and a rate limit
 *      raised out of the way;
 *   2. for each target, one at a time: starts it as a child process on 127.0.0.1, checks it
 *      answers the same body, forks bench/load.ts (autocannon) against it for a warm-up and a
 *      measured run, samples the CPU the server, Postgres and the load generator used, stops it;
 *   3. prints a table, writes bench/results/latest.json, kills every child and drops the
 *      database, on success, failure, Ctrl-C or the overall deadline alike.
 *
 * Knobs (environment): BENCH_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_ORGS (200), BENCH_EXTRA_KEYS (4), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (3 s),
 * BENCH_TARGETS (rest,services,bare-rl-unprep,bare-rl,bare), BENCH_PROFILE=1 (writes --cpu-prof profiles of the servers to
 * bench/results/profiles; slows them down, so its figures are not the benchmark's),
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import postgres from 'postgres';
import { migrate, openDatabase, type Database } from '../db/client';
import { systemClock } from '../server/clock';
import { issueApiKey } from '../server/services/api-keys';
import { createOrganizationWithKey, setRateLimit } from '../server/services/organizations';
import type { LoadJob, LoadPhase, LoadResult, LoadSummary } from './load';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(benchDir, '..');
const resultsDir = path.join(benchDir, 'results');

const int = (name: string, fallback: number, min = 1) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
};

const settings = {
  adminUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
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
  // What-if for the lead: the rate-limit log without WAL (see docs/benchmarks.md). Not the service's schema.
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

// Whole run, seeding included; a stuck step cannot keep the process alive past it. The defaults
// finish in about 90 s.
const DEADLINE_MS = (60 + selectedTargets.length * (settings.warmupSeconds + settings.durationSeconds + 25)) * 1000;
const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* ------------------------------------------------------------------ cleanup ------------------- */

const children = new Set<ChildProcess>();
const dbName = `eumail_bench_${randomBytes(5).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-bench-'));
let databaseCreated = false;
let seedDatabase: Database | null = null;
let cleanupPromise: Promise<void> | null = null;

async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!graceful) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(2_000)]);
  }
}

function cleanup(): Promise<void> {
  cleanupPromise ??= (async () => {
    await Promise.all([...children].map((child) => stopChild(child).catch(() => {})));
    await seedDatabase?.close().catch(() => {});
    if (databaseCreated) {
      const admin = postgres(settings.adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      try {
        await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
        log(`dropped database ${dbName}`);
      } catch (error) {
        console.error(`[bench] could not drop database ${dbName}: ${String(error)}`);
      } finally {
        await admin.end({ timeout: 2 }).catch(() => {});
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleanupPromise;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`[bench] ${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}
const deadline = setTimeout(() => {
  console.error(`[bench] still running after ${DEADLINE_MS / 1000} s: giving up`);
  void cleanup().finally(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();

/* ------------------------------------------------------------------ CPU accounting ------------ */

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of one process in ms, or null (not Linux, or gone). */
function cpuMsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU ms of every running postgres process (postmaster, backends, background workers). */
function postgresCpuMs(): Map<number, number> {
  const result = new Map<number, number>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return result;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      result.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // the process ended meanwhile
    }
  }
  return result;
}

/** Whole-machine CPU time from /proc/stat, in ms: busy (everything but idle and iowait) and steal. */
function machineCpuMs(): { busy: number; steal: number; total: number } | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, ...values] = line.trim().split(/\s+/);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values.map(Number);
    const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
    return { busy: toMs(user + nice + system + irq + softirq), steal: toMs(steal), total: toMs(user + nice + system + idle + iowait + irq + softirq + steal) };
  } catch {
    return null;
  }
}

function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/* ------------------------------------------------------------------ database ------------------ */

async function createAndSeed(): Promise<{ databaseUrl: string; keys: string[] }> {
  const admin = postgres(settings.adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`create database "${dbName}"`);
    databaseCreated = true;
  } finally {
    await admin.end({ timeout: 2 });
  }
  const url = new URL(settings.adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  log(`created database ${dbName}`);

  seedDatabase = await openDatabase({ url: databaseUrl, poolSize: 8 });
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
      await setRateLimit(deps, organizationId, settings.rateLimit);
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

/* ------------------------------------------------------------------ children ------------------ */

async function startServer(target: Target, databaseUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const nodeArgs = ['--import', 'tsx'];
  if (settings.profile) {
    // One file per thread (tsx's loader runs in a worker); the main thread's is the one with .0. in its name.
    const dir = path.join(resultsDir, 'profiles', target.id);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  // No Inngest (the API would send events), none of the harness's own knobs.
  for (const name of Object.keys(env)) if (name.startsWith('INNGEST_') || name.startsWith('BENCH_')) delete env[name];
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    ROLES: 'web',
    HOST: '127.0.0.1',
    PORT: '0',
    BENCH_LISTEN_PORT: '0',
    BENCH_POOL_SIZE: String(settings.poolSize),
    SMTP_GATEWAY_PORT: '0',
    BOUNCE_SMTP_PORT: '0',
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
    ...target.env,
  });
  const child = spawn(process.execPath, [...nodeArgs, path.join(benchDir, target.script)], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[${target.id}] ${chunk.toString()}`));

  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${target.id} did not start within 60 s`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /READY (\d+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${target.id} exited before it was ready (code ${code}, signal ${signal})`));
    });
  });
  return { child, port };
}

async function runLoad(job: LoadJob, onMeasureStart?: () => void): Promise<{ warmup: LoadSummary; measured: LoadSummary; loadCpuMs: number | null }> {
  const child = fork(path.join(benchDir, 'load.ts'), [], { cwd: projectRoot, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const budgetMs = (job.warmupSeconds + job.durationSeconds + 30) * 1000;
  try {
    const result = await new Promise<LoadResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the load generator did not finish in time')), budgetMs);
      child.on('message', (message: LoadResult | LoadPhase) => {
        if ('phase' in message) return onMeasureStart?.();
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the load generator exited with code ${code} before reporting`));
      });
      child.send(job);
    });
    if (!result.ok) throw new Error(`load generator failed: ${result.error}`);
    return { warmup: result.warmup, measured: result.measured, loadCpuMs: result.measuredCpuMs };
  } finally {
    await stopChild(child, 2_000);
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

const fixed = (value: number | null, digits: number) => (value === null || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits));

function printTable(results: TargetResult[], ratio: number | null): void {
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
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('');
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

async function main(): Promise<void> {
  const started = Date.now();
  const [load1] = os.loadavg();
  if (load1 !== undefined && load1 > os.cpus().length * 0.5) {
    log(`note: load average ${load1.toFixed(2)} on ${os.cpus().length} CPUs before start; the figures will be noisy`);
  }
  const { databaseUrl, keys } = await createAndSeed();
  const results: TargetResult[] = [];
  let referenceBody: unknown = undefined;

  for (const target of selectedTargets) {
    log(`${target.id}: starting (${target.description})`);
    const { child, port } = await startServer(target, databaseUrl);
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

      // Filled in when the load generator says the measured run starts (after the warm-up).
      const before = {
        at: 0,
        server: null as number | null,
        postgres: new Map<number, number>(),
        transactions: 0,
        machine: null as ReturnType<typeof machineCpuMs>,
      };
      const measureStart = () => {
        before.at = Date.now();
        before.machine = machineCpuMs();
        before.server = cpuMsOf(child.pid!);
        before.postgres = postgresCpuMs();
        void committedTransactions(databaseUrl).then((n) => (before.transactions = n));
      };
      log(`${target.id}: listening on 127.0.0.1:${port}; ${settings.warmupSeconds} s warm-up, then ${settings.durationSeconds} s measured`);
      const load = await runLoad(
        { url: `http://127.0.0.1:${port}${settings.path}`, keys, connections: settings.connections, warmupSeconds: settings.warmupSeconds, durationSeconds: settings.durationSeconds },
        measureStart,
      );
      const serverAfter = cpuMsOf(child.pid!);
      const postgresUsed = postgresDelta(before.postgres, postgresCpuMs());
      const machineAfter = machineCpuMs();
      const elapsedMs = Date.now() - before.at;
      const transactions = (await committedTransactions(databaseUrl)) - before.transactions;
      const requests = load.measured.totalRequests || 1;
      const serverUsed = before.server !== null && serverAfter !== null ? serverAfter - before.server : null;
      const otherCpuCores =
        before.machine && machineAfter && serverUsed !== null && load.loadCpuMs !== null
          ? Math.max(0, machineAfter.busy - before.machine.busy - serverUsed - postgresUsed - load.loadCpuMs) / elapsedMs
          : null;
      results.push({
        id: target.id,
        description: target.description,
        measured: load.measured,
        warmup: load.warmup,
        serverCpuMsPerRequest: serverUsed !== null ? serverUsed / requests : null,
        postgresCpuMsPerRequest: before.postgres.size > 0 ? postgresUsed / requests : null,
        loadGeneratorCpuMsPerRequest: load.loadCpuMs !== null ? load.loadCpuMs / requests : null,
        // pg_stat_database counts with a delay of up to stats_fetch/flush interval; indicative only.
        databaseTransactionsPerRequest: transactions > 0 ? transactions / requests : null,
        otherCpuCores,
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
  printTable(results, ratio);

  fs.mkdirSync(resultsDir, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAverageAtStart: os.loadavg()[0],
    },
    settings: { ...settings, adminUrl: undefined, targets: selectedTargets.map((t) => t.id) },
    results: results.map(({ sampleBody: _sampleBody, ...rest }) => rest),
    restOverBare: ratio,
    target: 1 / 3,
    targetMet: ratio === null ? null : ratio >= 1 / 3,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
  fs.writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote bench/results/latest.json (${report.wallSeconds} s)`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  // After Ctrl-C the children's deaths surface here as errors; the signal handler said enough.
  if (!interrupted) console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
