import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { recordBulkAudit } from '../audit/bulk';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';

/** The label of an entry whose address was erased: its hash stands in for it, as on the list (docs/privacy.md). */
export const hashedAddressLabel = (hash: string) => `address hash ${hash.slice(0, 12)}…`;

/** The list as a whole, the target of a batch import. */
const theList = (organizationId: string) => ({ type: 'suppression' as const, id: organizationId, label: 'Suppression list' });

/** One address put on the list by a person or a key (an address already there is no change). */
export function recordSuppressionAdded(tx: Db, deps: Pick<Deps, 'clock'>, principal: Principal, entry: { id: string; email: string; reason: string }): Promise<void> {
  return recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'suppression.added',
    target: { type: 'suppression', id: entry.id, label: entry.email },
    details: { reason: entry.reason },
  });
}

/** A batch import: one entry of counts per operation (audit/bulk.ts); nothing when no address was new. */
export async function recordSuppressionsImported(tx: Db, deps: Pick<Deps, 'clock'>, principal: Principal, added: number, reason: string): Promise<void> {
  if (added === 0) return;
  await recordBulkAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'suppression.imported', target: theList(principal.organizationId), details: { reason }, counts: { added } });
}

/** An entry taken off the list, by id or by address. */
export function recordSuppressionRemoved(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  entry: { id: string; email: string | null; emailHash: string | null; reason: string },
): Promise<void> {
  return recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'suppression.removed',
    target: { type: 'suppression', id: entry.id, label: entry.email ?? (entry.emailHash ? hashedAddressLabel(entry.emailHash) : null) },
    details: { reason: entry.reason },
  });
}
