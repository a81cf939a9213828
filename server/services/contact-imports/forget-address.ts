import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactImports } from '@/db/schema';
import { namesAddress } from './errors-naming';

/**
 * An erased address (GDPR Art. 17) taken out of the rows imports listed as not imported: their
 * entries whose address cell holds it, in any case, are dropped (the counts stand). Answers how
 * many imports changed.
 */
export async function forgetAddressInImports(tx: Db, organizationId: string, address: string): Promise<number> {
  const holds = (text: SQL) => namesAddress(text, address);
  const changed = await tx
    .update(contactImports)
    .set({ errors: sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${contactImports.errors}) as e where not ${holds(sql`e->>'email'`)}), '[]'::jsonb)` })
    .where(and(eq(contactImports.organizationId, organizationId), holds(sql`${contactImports.errors}::text`)))
    .returning({ id: contactImports.id });
  return changed.length;
}
