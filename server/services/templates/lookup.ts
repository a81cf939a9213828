import { and, eq, inArray } from 'drizzle-orm';
import { templates } from '@/db/schema';
import type { Db } from '@/db/client';
import type { StoredTemplate } from './cache';
import { cachedSource, rememberSource } from './sources';

/** The templates a send names: the ones it may render, and the ones with drafts never published, which nothing may send yet. */
export interface SendableTemplates {
  found: Map<string, StoredTemplate>;
  unpublished: Set<string>;
}

/**
 * The organization's templates among `ids`, for sends: one read of their versions, and a second
 * of the sources of those this process does not hold at that version. An id in neither answer is
 * not the organization's (or does not exist). What a send renders is the published content (the
 * row's own; a template with drafts keeps later changes in `draft`). The render workers parse them.
 */
export async function templatesOf(db: Db, organizationId: string, ids: string[]): Promise<SendableTemplates> {
  const found = new Map<string, StoredTemplate>();
  const unpublished = new Set<string>();
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return { found, unpublished };
  const mine = and(eq(templates.organizationId, organizationId), inArray(templates.id, wanted));
  const versions = await db.select({ id: templates.id, updatedAt: templates.updatedAt, publishedAt: templates.publishedAt }).from(templates).where(mine);
  const missing: string[] = [];
  for (const { id, updatedAt, publishedAt } of versions) {
    if (publishedAt === null) {
      unpublished.add(id);
      continue;
    }
    const cached = cachedSource(id, updatedAt);
    if (cached) found.set(id, cached);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows = await db
      .select({ id: templates.id, updatedAt: templates.updatedAt, subject: templates.subject, html: templates.html, text: templates.text, declaredVariables: templates.declaredVariables, from: templates.from, replyTo: templates.replyTo })
      .from(templates)
      .where(and(eq(templates.organizationId, organizationId), inArray(templates.id, missing)));
    for (const row of rows) {
      rememberSource(row);
      found.set(row.id, row);
    }
  }
  return { found, unpublished };
}
