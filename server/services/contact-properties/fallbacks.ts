import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactProperties, type ContactPropertyValue } from '@/db/schema';

/** The organization's property fallbacks: what a copy shows for a contact without a value. */
export async function propertyFallbacks(db: Db, organizationId: string): Promise<Record<string, ContactPropertyValue>> {
  const rows = await db
    .select({ key: contactProperties.key, fallback: contactProperties.fallbackValue })
    .from(contactProperties)
    .where(and(eq(contactProperties.organizationId, organizationId), isNotNull(contactProperties.fallbackValue)));
  return Object.fromEntries(rows.map((row) => [row.key, row.fallback as ContactPropertyValue]));
}
