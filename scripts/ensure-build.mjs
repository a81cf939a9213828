// `npm start` on a fresh clone: build the dashboard once, then reuse the build.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (process.env.NODE_ENV !== 'development' && !existsSync('.next/BUILD_ID')) {
  console.log('No dashboard build yet: running next build (once)');
  execSync('npx next build', { stdio: 'inherit' });
}
