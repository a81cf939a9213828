/**
 * What every benchmark suite of `npm run bench` shares: throwaway databases, child processes that
 * are always stopped, CPU accounting from /proc, the autocannon child, and one cleanup that runs on
 * success, failure, Ctrl-C and the deadline alike (children killed, databases dropped, temp dir
 * removed). Everything listens on and talks to 127.0.0.1 only.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import type { LoadJob, LoadPhase, LoadResult, LoadSummary } from './load';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const projectRoot = path.resolve(benchDir, '..');
export const resultsDir = path.join(benchDir, 'results');
export const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const int = (name: string, fallback: number, min = 1) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
};

export const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const errorText = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/* ------------------------------------------------------------------ cleanup ------------------- */

const children = new Set<ChildProcess>();
/** DATA_DIR of the servers (the service keeps generated secrets there). */
export const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-bench-'));
const databases: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
let cleanupPromise: Promise<void> | null = null;

/** Stops a child: SIGTERM, then SIGKILL after the grace period. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!graceful) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(2_000)]);
  }
}

/** Remembers a child so cleanup stops it. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Runs at cleanup, before children are stopped and databases dropped (latest registered first). */
export function onCleanup(fn: () => Promise<unknown>): void {
  cleanups.push(fn);
}

export function cleanup(): Promise<void> {
  cleanupPromise ??= (async () => {
    for (const fn of [...cleanups].reverse()) await fn().catch(() => {});
    await Promise.all([...children].map((child) => stopChild(child).catch(() => {})));
    // BENCH_KEEP_DATABASES=1 leaves them for a look at what the run stored (drop them by hand).
    if (process.env.BENCH_KEEP_DATABASES === '1') for (const name of databases) log(`kept database ${name}`);
    else if (databases.length > 0) {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      try {
        for (const name of databases) {
          try {
            await admin.unsafe(`drop database if exists "${name}" with (force)`);
            log(`dropped database ${name}`);
          } catch (error) {
            console.error(`[bench] could not drop database ${name}: ${String(error)}`);
          }
        }
      } finally {
        await admin.end({ timeout: 2 }).catch(() => {});
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleanupPromise;
}

/** Creates eumail_bench_<random> (dropped by cleanup) and answers its URL. */
export async function createDatabase(): Promise<{ name: string; url: string }> {
  const name = `eumail_bench_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`create database "${name}"`);
    databases.push(name);
    // A backend's parent is the postmaster (on this machine only: a remote server's is not here to read).
    const [backend] = await admin<Array<{ pid: number }>>`select pg_backend_pid() as pid`;
    const parent = backend ? parentOf(backend.pid) : null;
    if (parent && fs.readFileSync(`/proc/${parent}/stat`, 'utf8').includes('(postgres)')) postmasterPid = parent;
  } catch (error) {
    if (!databases.includes(name)) throw error;
  } finally {
    await admin.end({ timeout: 2 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  log(`created database ${name}`);
  return { name, url: url.toString() };
}

/* ------------------------------------------------------------------ CPU accounting ------------ */

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of one process in ms, or null (not Linux, or gone). */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * The postmaster of the server the bench's databases live on, once known (createDatabase): then
 * only its processes are counted, not those of another Postgres on the machine (a shared server
 * other people's tests use, when BENCH_PG_URL points the bench at one of its own).
 */
let postmasterPid: number | null = null;

function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** CPU ms of every running postgres process (postmaster, backends, background workers) of the bench's server. */
export function postgresCpuMs(): Map<number, number> {
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
      if (postmasterPid !== null && Number(entry) !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
      result.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // the process ended meanwhile
    }
  }
  return result;
}

/** Whole-machine CPU time from /proc/stat, in ms: busy (everything but idle and iowait) and steal. */
export function machineCpuMs(): { busy: number; steal: number; total: number } | null {
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

export function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

export interface CpuUsage {
  elapsedMs: number;
  /** CPU ms of each named process over the window (null when it could not be read). */
  processes: Record<string, number | null>;
  postgresMs: number;
  /** Cores used by everything else (other people's processes, kernel threads) meanwhile. */
  otherCores: number | null;
}

/**
 * Starts a CPU window over some of our processes, Postgres and this driver. `end(extraMs)` answers
 * what each used; `extraMs` is CPU of ours measured elsewhere (autocannon's own count).
 */
export function cpuWindow(pids: Record<string, number | undefined>) {
  const at = Date.now();
  const machine = machineCpuMs();
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, pid ? cpuMsOf(pid) : null]));
  const postgresBefore = postgresCpuMs();
  const self = process.cpuUsage();
  return {
    end(extraMs = 0): CpuUsage {
      const elapsedMs = Date.now() - at;
      const processes = Object.fromEntries(
        Object.entries(pids).map(([name, pid]) => {
          const after = pid ? cpuMsOf(pid) : null;
          const start = before[name];
          return [name, after !== null && start !== null && start !== undefined ? after - start : null];
        }),
      );
      const postgresMs = postgresDelta(postgresBefore, postgresCpuMs());
      const selfUsed = process.cpuUsage(self);
      const machineAfter = machineCpuMs();
      const ours = Object.values(processes).reduce<number>((sum, ms) => sum + (ms ?? 0), 0) + postgresMs + extraMs + (selfUsed.user + selfUsed.system) / 1000;
      const otherCores = machine && machineAfter && elapsedMs > 0 ? Math.max(0, machineAfter.busy - machine.busy - ours) / elapsedMs : null;
      return { elapsedMs, processes, postgresMs, otherCores };
    },
  };
}

/* ------------------------------------------------------------------ children ------------------ */

export interface ServerSpec {
  id: string;
  script: string;
  /** Another checkout of the project to run the script from (its bench/ and its code), for comparisons. */
  root?: string;
  env: Record<string, string>;
  /** Write --cpu-prof profiles to bench/results/profiles/<id>/. */
  profile?: boolean;
}

/** The environment of a child: no Inngest (the API would send events), none of the harness's knobs. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('INNGEST_') || name.startsWith('BENCH_')) delete env[name];
  return Object.assign(env, {
    NODE_ENV: 'production',
    ROLES: 'web',
    HOST: '127.0.0.1',
    PORT: '0',
    BENCH_LISTEN_PORT: '0',
    SMTP_GATEWAY_PORT: '0',
    BOUNCE_SMTP_PORT: '0',
    SMTP_GATEWAY_TLS_PORT: '0',
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
    ...extra,
  });
}

function profileArgs(id: string, profile: boolean | undefined): string[] {
  if (!profile) return [];
  // One file per thread (tsx's loader runs in a worker); the main thread's is the one with .0. in its name.
  const dir = path.join(resultsDir, 'profiles', id);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/**
 * The V8 heap flags the service runs with (package.json's start, the same as the image's CMD:
 * test/deploy-files.test.ts), given to every target and worker the bench starts, the bare floors
 * included: a ratio to the floor compares code, not heap tuning.
 */
export const HEAP_FLAGS: string[] = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.match(/--max-[a-z-]+-size=\d+/g) ?? [];

/** Starts an HTTP target (it prints `READY <port>` once it listens on 127.0.0.1). */
export async function startServer(spec: ServerSpec): Promise<{ child: ChildProcess; port: number }> {
  const child = track(
    spawn(process.execPath, [...HEAP_FLAGS, '--import', 'tsx', ...profileArgs(spec.id, spec.profile), path.join(spec.root ? path.join(spec.root, 'bench') : benchDir, spec.script)], {
      cwd: spec.root ?? projectRoot,
      env: childEnv(spec.env),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    }),
  );
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[${spec.id}] ${chunk.toString()}`));

  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${spec.id} did not start within 60 s`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /READY (\d+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        // From here the target writes a log line per request: drain them, keep none.
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        buffered = '';
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${spec.id} exited before it was ready (code ${code}, signal ${signal})`));
    });
  });
  return { child, port };
}

/**
 * Forks a bench script with an IPC channel. It talks in messages: `ask` sends one and waits for
 * the next message the child sends back (children answer in order), with a time limit.
 */
export function forkWorker(id: string, script: string, env: Record<string, string>, options: { profile?: boolean } = {}) {
  const child = track(
    fork(path.join(benchDir, script), [], {
      cwd: projectRoot,
      env: childEnv(env),
      execArgv: [...HEAP_FLAGS, '--import', 'tsx', ...profileArgs(id, options.profile)],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    }),
  );
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[${id}] ${chunk.toString()}`));
  const inbox: unknown[] = [];
  const waiting: Array<(message: unknown) => void> = [];
  child.on('message', (message) => {
    const next = waiting.shift();
    if (next) next(message);
    else inbox.push(message);
  });
  const receive = <T>(timeoutMs: number): Promise<T> => {
    if (inbox.length > 0) return Promise.resolve(inbox.shift() as T);
    return new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${id} exited (code ${code}) before answering`));
      };
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        const index = waiting.indexOf(deliver);
        if (index >= 0) waiting.splice(index, 1);
        reject(new Error(`${id} did not answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const deliver = (message: unknown) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(message as T);
      };
      child.once('exit', onExit);
      waiting.push(deliver);
    });
  };
  return {
    child,
    /** The next message from the child. */
    receive,
    /** Sends a message and waits for the child's answer. */
    ask: <T>(message: unknown, timeoutMs = 60_000): Promise<T> => {
      const answer = receive<T>(timeoutMs);
      child.send(message as object);
      return answer;
    },
    stop: () => stopChild(child),
  };
}

export type Worker = ReturnType<typeof forkWorker>;

/**
 * A load generator in its own process (a script of bench/): sends it the job, passes on what it
 * reports along the way, and answers its final message, which `isFinal` recognises, within
 * `budgetMs`. The child is stopped however it ends.
 */
export async function runGeneratorChild<M extends object, F extends M>(
  script: string,
  job: object,
  budgetMs: number,
  isFinal: (message: M) => message is F,
  onMessage: (message: M) => void = () => undefined,
): Promise<F & { pid: number }> {
  const child = track(fork(path.join(benchDir, script), [], { cwd: projectRoot, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  try {
    const result = await new Promise<F>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the load generator did not finish in time')), budgetMs);
      child.on('message', (message: M) => {
        if (!isFinal(message)) return onMessage(message);
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the load generator exited with code ${code} before reporting`));
      });
      child.send(job);
    });
    return { ...result, pid: child.pid! };
  } finally {
    await stopChild(child, 2_000);
  }
}

/** autocannon in its own process against one target: a warm-up, then the measured run. */
export async function runLoad(job: LoadJob, onMeasureStart?: () => void): Promise<{ warmup: LoadSummary; measured: LoadSummary; loadCpuMs: number | null; pid: number }> {
  const result = await runGeneratorChild<LoadResult | LoadPhase, LoadResult>(
    'load.ts',
    job,
    (job.warmupSeconds + job.durationSeconds + 30) * 1000,
    (message): message is LoadResult => !('phase' in message),
    () => onMeasureStart?.(),
  );
  if (!result.ok) throw new Error(`load generator failed: ${result.error}`);
  return { warmup: result.warmup, measured: result.measured, loadCpuMs: result.measuredCpuMs, pid: result.pid };
}

/* ------------------------------------------------------------------ output -------------------- */

export const fixed = (value: number | null | undefined, digits: number) => (value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits));

/** A plain text table: first column left-aligned, the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('');
}

export function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg()[0],
  };
}

export function writeResult(file: string, report: unknown): void {
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, file), `${JSON.stringify(report, null, 2)}\n`);
}

export function noteLoadAverage(): void {
  const [load1] = os.loadavg();
  if (load1 !== undefined && load1 > os.cpus().length * 0.5) {
    log(`note: load average ${load1.toFixed(2)} on ${os.cpus().length} CPUs before start; the figures will be noisy`);
  }
}
