import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactAliases } from '@/db/schema';

/**
 * The contact id each given id names: itself, or, for the id of a row merged into another contact
 * by address (migration 0034), that contact's id. Ids are compared lowercase.
 */
export async function canonicalContactIds(db: Db, organizationId: string, ids: string[]): Promise<string[]> {
  const lower = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (lower.length === 0) return [];
  const aliases = await db
    .select({ id: contactAliases.id, contactId: contactAliases.contactId })
    .from(contactAliases)
    .where(and(eq(contactAliases.organizationId, organizationId), inArray(contactAliases.id, lower)));
  const of = new Map(aliases.map((alias) => [alias.id, alias.contactId]));
  return [...new Set(lower.map((id) => of.get(id) ?? id))];
}

export async function canonicalContactId(db: Db, organizationId: string, id: string): Promise<string> {
  const [canonical] = await canonicalContactIds(db, organizationId, [id]);
  return canonical!;
}
