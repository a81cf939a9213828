import { and, eq } from 'drizzle-orm';
import { domains } from '@/db/schema';
import type { Db } from '@/db/client';

/** The organization's domain with this id, or null: another organization's domain is never visible. */
export async function findOwnDomain(db: Db, organizationId: string, id: string) {
  const [domain] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.organizationId, organizationId)));
  return domain ?? null;
}
