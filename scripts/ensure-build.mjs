// `npm start`: build the dashboard when there is no build, or when its sources changed since.
// `npm run build` (--force) always builds, and stamps the build so `npm start` reuses it.
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'server', 'db', 'emails', 'inngest', 'public', 'next.config.mjs', 'postcss.config.mjs', 'package-lock.json', 'tsconfig.json'];
const STAMP = '.next/SOURCE_HASH';

function* files(entry) {
  if (!existsSync(entry)) return;
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

const hash = createHash('sha256');
for (const source of SOURCES) {
  for (const file of files(source)) hash.update(file).update(readFileSync(file));
}
const digest = hash.digest('hex');

const built = existsSync('.next/BUILD_ID') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest;
const force = process.argv.includes('--force');
if (force || (process.env.NODE_ENV !== 'development' && !built)) {
  if (!force) console.log('The dashboard build is missing or older than its sources: running next build');
  execSync('npx next build', { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  writeFileSync(STAMP, digest);
}
