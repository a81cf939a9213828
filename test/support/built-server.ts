import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a plain .mjs build script, no types
import { buildServer } from '../../scripts/build-server.mjs';
import { spawnCaptured, type Spawned } from './process';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * The bundle `npm start` runs, built into a folder of the test's own inside the project (it finds
 * db/migrations by walking up from itself) and started with node alone: the process a signal or a
 * SIGKILL really reaches, with no loader or shell in between.
 */
export async function buildServerBundle(name: string): Promise<{ run(entry: 'main' | 'cli', env: Record<string, string>, args?: string[]): Spawned; remove(): void }> {
  const outdir = path.join(root, 'dist', `test-${name}-${process.pid}`);
  await buildServer(outdir);
  return {
    run: (entry, env, args = []) => spawnCaptured(process.execPath, ['--enable-source-maps', path.join(outdir, `${entry}.mjs`), ...args], { DATABASE_URL: '', ...env }),
    remove: () => fs.rmSync(outdir, { recursive: true, force: true }),
  };
}
