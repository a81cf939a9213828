// The server and the operator CLI as plain JavaScript (dist/server/main.mjs, dist/server/cli.mjs),
// so production starts with node, not a TypeScript loader. Dependencies stay in node_modules.
// The template render pool's worker is an entry of its own (dist/server/render-worker.mjs): a
// worker thread loads it by path, beside the chunk that starts the pool.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

export async function buildServer(outdir = 'dist/server') {
  // Chunk names change with their content: a folder kept from an earlier build would fill up.
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { main: 'server/main.ts', cli: 'server/admin/cli.ts', 'render-worker': 'server/services/templates/render-worker.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: 'tsconfig.json',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer(process.argv[2]);
