import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder: the nearest one above this module that holds `db/migrations`. The
 * sources (tsx, Vitest, Next's bundles under .next/) and the server bundle in dist/server/ sit at
 * different depths, so the root is found rather than counted.
 */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'db', 'migrations'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No db/migrations above ${start}: run the service from its project folder`);
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
