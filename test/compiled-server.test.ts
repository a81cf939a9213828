import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script, no types
import { buildServer } from '../scripts/build-server.mjs';
import { waitForOutput, type Spawned } from './support/process';

// The bundle `npm start` runs: built here into its own folder inside the project (it finds
// db/migrations by walking up from itself), started with node alone, no TypeScript loader.
const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist', `test-${process.pid}`);
let dataDir: string;

function runBuilt(entry: 'main' | 'cli', args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(outdir, `${entry}.mjs`), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: '', ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

beforeAll(async () => {
  await buildServer(outdir);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-built-'));
});
afterAll(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is plain JavaScript that node runs: the CLI, then the server answering /api/health', async () => {
    const env = { DATA_DIR: dataDir, DASHBOARD: 'off', PORT: '0', BOUNCE_SMTP_PORT: '0', APP_URL: 'http://127.0.0.1:3000' };
    const create = runBuilt('cli', ['org:create', '--name', 'Built', '--owner-email', 'built@example.com', '--plan', 'free'], env);
    expect(await create.exited).toBe(0);
    const created = JSON.parse(create.output().trim().split('\n').pop()!) as { organizationId: string; apiKey: string };
    expect(created.apiKey).toMatch(/^eu_live_/);

    const server = runBuilt('main', [], env);
    try {
      await waitForOutput(server, /listening on port (\d+)/);
      const port = /listening on port (\d+)/.exec(server.output())![1];
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const keys = await fetch(`http://127.0.0.1:${port}/api/api-keys`, { headers: { authorization: `Bearer ${created.apiKey}` } });
      expect(keys.status).toBe(200);
      // While the server holds the embedded database, the built CLI goes through it.
      const show = runBuilt('cli', ['org:show', '--org', created.organizationId], env);
      expect(await show.exited).toBe(0);
      expect(JSON.parse(show.output().trim().split('\n').pop()!)).toMatchObject({ organizationId: created.organizationId, name: 'Built' });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
