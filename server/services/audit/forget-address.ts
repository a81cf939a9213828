import { and, eq, inArray } from 'drizzle-orm';
import { auditEvents } from '@/db/schema';
import type { Db } from '@/db/client';

/**
 * An erased address leaves the audit log too: the entries about its contacts and suppression
 * entries are labelled with the address, which is replaced by `label` (its keyed hash). The rows
 * themselves stay: who changed what, when, is the organization's record, not the person's data.
 * Answers how many entries named it.
 */
export async function forgetAddressInAuditLog(tx: Db, organizationId: string, address: string, label: string): Promise<number> {
  const relabelled = await tx
    .update(auditEvents)
    .set({ targetLabel: label })
    .where(and(eq(auditEvents.organizationId, organizationId), inArray(auditEvents.targetType, ['contact', 'suppression']), eq(auditEvents.targetLabel, address)))
    .returning({ id: auditEvents.id });
  return relabelled.length;
}
