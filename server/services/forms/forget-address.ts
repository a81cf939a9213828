import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { formSubmissions } from '@/db/schema';

/**
 * An erased address (GDPR Art. 17) taken out of the forms' submission lists: its submissions are
 * deleted (the proof of consent, and of its withdrawal, is the ledger's, which the erasure hashes).
 * Answers how many went.
 */
export async function forgetAddressInFormSubmissions(tx: Db, organizationId: string, address: string): Promise<number> {
  const removed = await tx
    .delete(formSubmissions)
    .where(and(eq(formSubmissions.organizationId, organizationId), eq(formSubmissions.email, address)))
    .returning({ id: formSubmissions.id });
  return removed.length;
}
