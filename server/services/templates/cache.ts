import { parseTemplate, type ParsedTemplate, type TemplateSource } from './parse';

/**
 * Parsed templates, kept by each render worker (render-worker.ts), which parses a version once.
 * Bounds: templates, and characters of their source (parsed, they weigh a few times that), small
 * enough to leave the worker's heap (render-pool.ts) to rendering.
 */
const MAX_TEMPLATES = 200;
const MAX_CHARS = 8 * 1024 * 1024;

interface Entry {
  version: number;
  parsed: ParsedTemplate;
}

/** By template id, in order of last use (a Map iterates in insertion order: the first is the least recent). */
const entries = new Map<string, Entry>();
let chars = 0;

/** A template as stored: `updatedAt` moves forward on every change, so with the id it names one version. */
export interface StoredTemplate extends TemplateSource {
  id: string;
  updatedAt: Date;
  /** What a send by it takes when it gives none (absent where only the content is needed). */
  from?: string | null;
  replyTo?: string[];
}

function drop(id: string): void {
  const entry = entries.get(id);
  if (!entry) return;
  entries.delete(id);
  chars -= entry.parsed.size;
}

/** Keeps a parsed version, dropping the least recently used beyond the bounds. */
function rememberParsed(id: string, updatedAt: Date, parsed: ParsedTemplate): void {
  drop(id);
  if (parsed.size > MAX_CHARS) return;
  entries.set(id, { version: updatedAt.getTime(), parsed });
  chars += parsed.size;
  for (const [oldest] of entries) {
    if (entries.size <= MAX_TEMPLATES && chars <= MAX_CHARS) break;
    drop(oldest);
  }
}

/** The parsed version of a template if this worker holds it. */
function cachedParsed(id: string, updatedAt: Date): ParsedTemplate | undefined {
  const entry = entries.get(id);
  if (!entry || entry.version !== updatedAt.getTime()) return undefined;
  entries.delete(id);
  entries.set(id, entry);
  return entry.parsed;
}

/** A stored template parsed: from the cache, or parsed now and kept. */
export function parsedTemplate(row: StoredTemplate): ParsedTemplate {
  const cached = cachedParsed(row.id, row.updatedAt);
  if (cached) return cached;
  const parsed = parseTemplate(row);
  rememberParsed(row.id, row.updatedAt, parsed);
  return parsed;
}
