/**
 * The soak suite's service process, started as an operator starts it: the server bundle built by
 * `node scripts/ensure-build.mjs --server-only` (what `npm start` runs first), then
 * `node --enable-source-maps <the start script's heap flags> dist/server/main.mjs` (what it runs next), with the default roles
 * (web, smtp, worker: the embedded runner delivers) and DASHBOARD=off. No npm in between, so the
 * child's pid is the server's and its RSS is the server's.
 *
 * Its stdout is its JSON log: read line by line for the port, for warnings and errors, the
 * server's own view of each request's duration, and what the delivery sweeps did.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { childEnv, HEAP_FLAGS, projectRoot, track } from './harness';

export interface ServiceLog {
  lines: number;
  /** Access-log lines while `measuring` was set, and their durationMs (handler time, no queueing). */
  measuredRequests: number;
  measuredServerMs: number[];
  warnings: number;
  errors: number;
  /** The first warnings and errors: time, level, message, sweep, error message. */
  firstProblems: string[];
  /** email-dispatch sweeps that handled something, what they handled, and the longest. */
  dispatchSweeps: number;
  dispatchHandled: number;
  dispatchMaxMs: number;
  /** Lines that were not JSON (a crash's stack, a stray console.log). */
  otherLines: string[];
  measuring: boolean;
}

interface LogLine {
  level?: number;
  msg?: string;
  durationMs?: number;
  sweep?: string;
  handled?: number;
  time?: string;
  err?: { message?: string };
}

function watch(child: ChildProcess, log: ServiceLog, onPort: (port: number) => void): void {
  createInterface({ input: child.stdout! }).on('line', (text) => {
    log.lines++;
    let line: LogLine & { port?: number };
    try {
      line = JSON.parse(text) as LogLine & { port?: number };
    } catch {
      if (log.otherLines.length < 20) log.otherLines.push(text.slice(0, 500));
      return;
    }
    if (line.msg === 'request') {
      if (log.measuring) {
        log.measuredRequests++;
        log.measuredServerMs.push(line.durationMs ?? 0);
      }
    } else if (line.msg === 'sweep done' && line.sweep === 'email-dispatch') {
      log.dispatchSweeps++;
      log.dispatchHandled += line.handled ?? 0;
      log.dispatchMaxMs = Math.max(log.dispatchMaxMs, line.durationMs ?? 0);
    } else if (typeof line.port === 'number' && /listening/.test(line.msg ?? '')) onPort(line.port);
    if ((line.level ?? 0) >= 40) {
      if (line.level! >= 50) log.errors++;
      else log.warnings++;
      const what = [line.time, line.level! >= 50 ? 'error' : 'warn', line.msg, line.sweep, line.err?.message].filter(Boolean).join(' ');
      if (log.firstProblems.length < 20) log.firstProblems.push(what.slice(0, 300));
    }
  });
}

/** Builds the server bundle if it is stale, starts it on 127.0.0.1:<any port> and waits for it to listen. */
export async function startBuiltService(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; log: ServiceLog }> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs', '--server-only'], { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  const fullEnv = childEnv({ DASHBOARD: 'off', BOUNCE_SMTP_PORT: '0', SMTP_GATEWAY_PORT: '0', SMTP_GATEWAY_TLS_PORT: '0', ...env });
  // The harness's children default to the web role only; the soak runs the default, all three.
  delete fullEnv.ROLES;
  const child = track(spawn(process.execPath, ['--enable-source-maps', ...HEAP_FLAGS, 'dist/server/main.mjs'], { cwd: projectRoot, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[service] ${chunk.toString()}`));
  const log: ServiceLog = {
    lines: 0,
    measuredRequests: 0,
    measuredServerMs: [],
    warnings: 0,
    errors: 0,
    firstProblems: [],
    dispatchSweeps: 0,
    dispatchHandled: 0,
    dispatchMaxMs: 0,
    otherLines: [],
    measuring: false,
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the service did not listen within 60 s')), 60_000);
    watch(child, log, (found) => {
      clearTimeout(timer);
      resolve(found);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the service exited before it listened (code ${code}, signal ${signal}): ${log.otherLines.join('\n')}`));
    });
  });
  return { child, port, log };
}

/** Resident set size of a process in kB (VmRSS), or null once it is gone. */
export function rssKbOf(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
