import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot as root, sourceFiles } from './support/source-files';

// ESLint's no-cycle rule skips type-only imports; a type cycle still ties two modules' designs
// together, so this graph counts every import, types included.
const FOLDERS = ['server', 'db', 'inngest', 'emails', 'app'];

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(path.join(root, folder))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      graph.set(file, importedFiles.map((entry) => resolveImport(file, entry.fileName)).filter((target): target is string => target !== null));
    }
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one module, or one importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(root, member));
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Folders point down: app/ and server/http/ (the edges) → server/trpc/ → server/routers/ →
 * server/services/ → db/ (docs/architecture.md, "Folders that only point down"). Each rule: files
 * under `from` never import files under any of `never`. server/vocabulary/ imports nothing and
 * anyone may read it; db/ reads nothing else of server/.
 */
const DIRECTION: Array<{ from: string; never: string[] }> = [
  { from: 'server/services/', never: ['server/http/', 'server/trpc/', 'server/routers/', 'app/'] },
  { from: 'server/routers/', never: ['server/http/', 'app/'] },
  { from: 'server/trpc/', never: ['server/http/', 'app/'] },
  { from: 'db/', never: ['server/services/', 'server/http/', 'server/trpc/', 'server/routers/', 'app/'] },
  { from: 'server/vocabulary/', never: ['server/', 'db/', 'app/'] },
];

/** Every import against the direction, as `from -> to` (paths relative to the project). */
function againstDirection(graph: Map<string, string[]>, rules = DIRECTION): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = path.isAbsolute(file) ? path.relative(root, file) : file;
    for (const target of targets) {
      const to = path.isAbsolute(target) ? path.relative(root, target) : target;
      // A folder may always import its own files (server/vocabulary/ is under the server/ it may not read).
      const broken = rules.some((rule) => from.startsWith(rule.from) && !to.startsWith(rule.from) && rule.never.some((folder) => to.startsWith(folder)));
      if (broken) found.push(`${from} -> ${to}`);
    }
  }
  return found.sort();
}

describe('module graph', () => {
  it('has no import cycles, type-only imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('points down: no folder imports one above it (services never http/trpc/routers, routers never http, db never services)', () => {
    expect(againstDirection(importGraph())).toEqual([]);
  });

  it('finds an import against the direction when there is one', () => {
    const graph = new Map([
      ['server/services/emails/send.ts', ['server/http/respond.ts', 'db/schema/emails.ts', 'server/vocabulary/email-statuses.ts']],
      ['server/routers/emails.ts', ['server/trpc/init.ts', 'server/http/api-context.ts']],
      ['db/schema/emails.ts', ['server/services/emails/statuses.ts', 'server/vocabulary/email-statuses.ts']],
      ['server/vocabulary/email-statuses.ts', ['server/vocabulary/event-types.ts', 'server/ids.ts']],
      ['server/http/rest.ts', ['server/trpc/init.ts', 'server/routers/index.ts', 'server/services/emails/send.ts']],
    ]);
    expect(againstDirection(graph)).toEqual([
      'db/schema/emails.ts -> server/services/emails/statuses.ts',
      'server/routers/emails.ts -> server/http/api-context.ts',
      'server/services/emails/send.ts -> server/http/respond.ts',
      'server/vocabulary/email-statuses.ts -> server/ids.ts',
    ]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
