import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The project's root, for tests that read its source. */
export const projectRoot = path.resolve(import.meta.dirname, '..', '..');

/** Every TypeScript source file under `dir` (declarations, migrations and node_modules left out). */
export function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === 'migrations' || name === 'node_modules') continue;
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield full;
  }
}
