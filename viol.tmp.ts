import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
const root = process.cwd();
function* files(dir: string): Generator<string> { for (const n of readdirSync(dir)) { const f = path.join(dir, n); if (n === 'migrations' || n === 'node_modules') continue; if (statSync(f).isDirectory()) yield* files(f); else if (/\.tsx?$/.test(n) && !n.endsWith('.d.ts')) yield f; } }
function res(from: string, s: string) { let b: string; if (s.startsWith('@/')) b = path.join(root, s.slice(2)); else if (s.startsWith('.')) b = path.resolve(path.dirname(from), s); else return null; for (const c of [b, b + '.ts', b + '.tsx', path.join(b, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c; return null; }
const RULES = [
  ['server/services/', ['server/http/', 'server/trpc/', 'server/routers/', 'app/']],
  ['db/', ['server/']],
  ['server/routers/', ['server/http/', 'app/']],
  ['server/trpc/', ['server/http/', 'server/routers/', 'app/']],
] as const;
for (const folder of ['server', 'db', 'inngest', 'emails', 'app']) for (const f of files(path.join(root, folder))) {
  const rel = path.relative(root, f);
  for (const e of ts.preProcessFile(readFileSync(f, 'utf8'), true, true).importedFiles) {
    const t = res(f, e.fileName); if (!t) continue; const tr = path.relative(root, t);
    for (const [from, never] of RULES) if (rel.startsWith(from)) for (const n of never) if (tr.startsWith(n)) console.log(`${rel} -> ${tr}`);
  }
}
