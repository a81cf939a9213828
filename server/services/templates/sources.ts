import type { StoredTemplate } from './cache';

/**
 * Template sources this process has read, by id and version (`updatedAt`), as a send renders them
 * (the published content; a draft is never kept here): a send reads the
 * versions of the templates it names, and the sources only of those not held here at that
 * version. The render workers parse them (render-pool.ts). Bounds: templates, and characters.
 */
const MAX_TEMPLATES = 500;
const MAX_CHARS = 32 * 1024 * 1024;

const sizeOf = (row: StoredTemplate) => row.subject.length + (row.html?.length ?? 0) + (row.text?.length ?? 0);

/** By template id, in order of last use (a Map iterates in insertion order: the first is the least recent). */
const entries = new Map<string, StoredTemplate>();
let chars = 0;

export function forgetSource(id: string): void {
  const entry = entries.get(id);
  if (!entry) return;
  entries.delete(id);
  chars -= sizeOf(entry);
}

/** Keeps a version's source, dropping the least recently used beyond the bounds. */
export function rememberSource(row: StoredTemplate): void {
  forgetSource(row.id);
  const size = sizeOf(row);
  if (size > MAX_CHARS) return;
  entries.set(row.id, { id: row.id, updatedAt: row.updatedAt, subject: row.subject, html: row.html, text: row.text, declaredVariables: row.declaredVariables ?? [], from: row.from ?? null, replyTo: row.replyTo ?? [] });
  chars += size;
  for (const [oldest] of entries) {
    if (entries.size <= MAX_TEMPLATES && chars <= MAX_CHARS) break;
    forgetSource(oldest);
  }
}

/** The source of that version of a template if this process holds it. */
export function cachedSource(id: string, updatedAt: Date): StoredTemplate | undefined {
  const entry = entries.get(id);
  if (!entry || entry.updatedAt.getTime() !== updatedAt.getTime()) return undefined;
  entries.delete(id);
  entries.set(id, entry);
  return entry;
}
