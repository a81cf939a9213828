/**
 * BENCH_SUITE=startup: from `npm start` to the first 200 of `/api/health`, on a tree that is
 * already built (so the figure is the start itself, not a build), with the dashboard on and with
 * DASHBOARD=off, BENCH_STARTUP_RUNS times each (5), a fresh PGlite DATA_DIR every run.
 * BENCH_STARTUP_TREE (this project) names another checkout to measure the same way, e.g. an
 * older commit for a before/after.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { int, log, printTable, projectRoot, sleep, stopChild, track, writeResult } from './harness';

const settings = {
  runs: int('BENCH_STARTUP_RUNS', 5),
  port: int('BENCH_LISTEN_PORT', 3870),
  tree: process.env.BENCH_STARTUP_TREE ?? projectRoot,
};

export const startupDeadlineMs = () => (settings.runs * 2 * 60 + 300) * 1000;

async function healthyAfterMs(dashboard: 'on' | 'off'): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-startup-'));
  const started = performance.now();
  const child = track(
    spawn('npm', ['start'], {
      cwd: settings.tree,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(settings.port), DASHBOARD: dashboard, BOUNCE_SMTP_PORT: '0', SMTP_GATEWAY_PORT: '0', SMTP_GATEWAY_TLS_PORT: '0', DATABASE_URL: '', NODE_ENV: 'production' },
      stdio: 'ignore',
      detached: true,
    }),
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${settings.port}/api/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error('not healthy after 120 s');
      await sleep(25);
    }
  } finally {
    // npm runs the server under a shell: the whole group goes.
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await stopChild(child, 1_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runStartupSuite(): Promise<void> {
  log(`start-up of ${settings.tree}: ${settings.runs} runs each, dashboard on and off`);
  const rows: string[][] = [];
  const report: Record<string, number[]> = {};
  for (const dashboard of ['on', 'off'] as const) {
    const times: number[] = [];
    for (let run = 0; run < settings.runs; run++) times.push(await healthyAfterMs(dashboard));
    report[`dashboard ${dashboard}`] = times;
    rows.push([`dashboard ${dashboard}`, median(times).toFixed(0), Math.min(...times).toFixed(0), Math.max(...times).toFixed(0)]);
  }
  printTable(['start', 'median ms', 'min ms', 'max ms'], rows);
  writeResult('startup-latest.json', { tree: settings.tree, runs: settings.runs, ms: report });
}
