import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['test/**/*.test.ts'],
    // The migrations applied once per run; each file's database is a copy (test/support/database.ts).
    globalSetup: ['test/support/migrated-template.ts'],
    pool: 'forks',
    // Four files at a time on two cores: a file spends much of its time waiting on sockets, timers
    // and child processes. Two workers kept 1.2 cores busy (PGlite suite 769 s); four keep 1.85
    // busy and take 514 s (docs/ci.md).
    maxWorkers: 4,
    // Bounds a loaded 2-core machine does not miss: a test that spawns a built server or a
    // Debian tool can take tens of seconds while the other worker is busy too.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
