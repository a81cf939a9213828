// `npm start` and `npm run admin`: build what is missing or older than its sources, then exit.
//   the server bundle (dist/server: the process and the CLI, esbuild, about a second)
//   the dashboard (.next: next build, about a minute), unless --server-only or DASHBOARD=off
// `npm run build` (--force) builds both and stamps them, so the next start reuses them.
// Progress goes to stderr: the CLI's answer on stdout stays JSON.
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from './build-server.mjs';

const SHARED = ['server', 'db', 'emails', 'inngest', 'package-lock.json', 'tsconfig.json'];
const TARGETS = {
  server: { sources: [...SHARED, 'scripts/build-server.mjs'], stamp: 'dist/server/SOURCE_HASH', ready: 'dist/server/main.mjs' },
  dashboard: { sources: [...SHARED, 'app', 'public', 'next.config.mjs', 'postcss.config.mjs'], stamp: '.next/SOURCE_HASH', ready: '.next/BUILD_ID' },
};

function* files(entry) {
  if (!existsSync(entry)) return;
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

function digestOf(sources) {
  const hash = createHash('sha256');
  for (const source of sources) for (const file of files(source)) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const development = process.env.NODE_ENV === 'development';
const wanted = ['server'];
if (!process.argv.includes('--server-only') && (force || process.env.DASHBOARD !== 'off')) wanted.push('dashboard');

for (const name of wanted) {
  const target = TARGETS[name];
  const digest = digestOf(target.sources);
  const current = existsSync(target.ready) && existsSync(target.stamp) && readFileSync(target.stamp, 'utf8') === digest;
  if (current && !force) continue;
  if (development && !force) continue;
  if (!force) console.error(`The ${name} build is missing or older than its sources: building it`);
  if (name === 'server') {
    await buildServer();
  } else {
    execSync('npx next build', { stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  }
  mkdirSync(path.dirname(target.stamp), { recursive: true });
  writeFileSync(target.stamp, digest);
}
