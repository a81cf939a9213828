import { and, eq, inArray } from 'drizzle-orm';
import { templates } from '@/db/schema';
import type { Db } from '@/db/client';
import { AppError } from '../../errors';
import { cachedParsed, parsedTemplate } from './cache';
import type { ParsedTemplate } from './parse';

/**
 * The organization's templates among `ids`, parsed, for sends: one read of their versions, and
 * a second of the sources of those this process has not parsed at that version. An id missing
 * from the answer is not the organization's (or does not exist); a stored template that no
 * longer parses (rules tightened since it was saved) is answered with the 400 that says why.
 */
export async function parsedTemplatesOf(db: Db, organizationId: string, ids: string[]): Promise<Map<string, ParsedTemplate | AppError>> {
  const found = new Map<string, ParsedTemplate | AppError>();
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return found;
  const mine = and(eq(templates.organizationId, organizationId), inArray(templates.id, wanted));
  const versions = await db.select({ id: templates.id, updatedAt: templates.updatedAt }).from(templates).where(mine);
  const missing: string[] = [];
  for (const { id, updatedAt } of versions) {
    const cached = cachedParsed(id, updatedAt);
    if (cached) found.set(id, cached);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows = await db
      .select({ id: templates.id, updatedAt: templates.updatedAt, subject: templates.subject, html: templates.html, text: templates.text })
      .from(templates)
      .where(and(eq(templates.organizationId, organizationId), inArray(templates.id, missing)));
    for (const row of rows) {
      try {
        found.set(row.id, parsedTemplate(row));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        found.set(row.id, error);
      }
    }
  }
  return found;
}
