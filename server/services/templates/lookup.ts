import { and, eq, inArray } from 'drizzle-orm';
import { templates } from '@/db/schema';
import type { Db } from '@/db/client';
import type { StoredTemplate } from './cache';
import { cachedSource, rememberSource } from './sources';

/**
 * The organization's templates among `ids`, for sends: one read of their versions, and a second
 * of the sources of those this process does not hold at that version. An id missing from the
 * answer is not the organization's (or does not exist). The render workers parse them.
 */
export async function templatesOf(db: Db, organizationId: string, ids: string[]): Promise<Map<string, StoredTemplate>> {
  const found = new Map<string, StoredTemplate>();
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return found;
  const mine = and(eq(templates.organizationId, organizationId), inArray(templates.id, wanted));
  const versions = await db.select({ id: templates.id, updatedAt: templates.updatedAt }).from(templates).where(mine);
  const missing: string[] = [];
  for (const { id, updatedAt } of versions) {
    const cached = cachedSource(id, updatedAt);
    if (cached) found.set(id, cached);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows = await db
      .select({ id: templates.id, updatedAt: templates.updatedAt, subject: templates.subject, html: templates.html, text: templates.text })
      .from(templates)
      .where(and(eq(templates.organizationId, organizationId), inArray(templates.id, missing)));
    for (const row of rows) {
      rememberSource(row);
      found.set(row.id, row);
    }
  }
  return found;
}
