import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import type { AudienceRow } from '../audiences/crud';
import { recordBulkAudit } from '../audit/bulk';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';

/**
 * How a write of contacts reads in the audit log: `one` for a request about one contact (a create,
 * a PATCH, a DELETE), labelled with its address; `batch` for the batch endpoints and the
 * dashboard's import, one entry of counts per operation (audit/bulk.ts). The address is the only
 * personal data an entry holds, in its label, which an erasure replaces with the address's hash.
 */
export type ContactAuditScope = 'one' | 'batch';

const inAudience = (audience: Pick<AudienceRow, 'id' | 'name'>) => ({ audienceId: audience.id, audience: audience.name });

/** Contacts created or updated by an upsert; nothing is recorded when none changed. */
export async function recordContactsWritten(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  audience: Pick<AudienceRow, 'id' | 'name'>,
  written: Array<{ id: string; email: string; created: boolean; subscribed: boolean }>,
  scope: ContactAuditScope,
): Promise<void> {
  if (written.length === 0) return;
  const by = byPrincipal(principal);
  if (scope === 'batch') {
    const created = written.filter((row) => row.created).length;
    await recordBulkAudit(tx, deps, {
      organizationId: principal.organizationId,
      by,
      action: 'contact.imported',
      target: { type: 'audience', id: audience.id, label: audience.name },
      counts: { created, updated: written.length - created },
    });
    return;
  }
  const [contact] = written;
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by,
    action: contact!.created ? 'contact.created' : 'contact.updated',
    target: { type: 'contact', id: contact!.id, label: contact!.email },
    details: { ...inAudience(audience), subscribed: contact!.subscribed },
  });
}

/** A PATCH that changed the contact: which fields, and the subscription as it now stands (never the name: an erasure clears labels, not details). */
export function recordContactUpdated(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  audience: Pick<AudienceRow, 'id' | 'name'>,
  contact: { id: string; email: string; subscribed: boolean },
  fields: string[],
): Promise<void> {
  return recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'contact.updated',
    target: { type: 'contact', id: contact.id, label: contact.email },
    details: { ...inAudience(audience), fields, subscribed: contact.subscribed },
  });
}

/** Contacts deleted: the one contact, or the batch's count; nothing when none was there. */
export async function recordContactsDeleted(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  audience: Pick<AudienceRow, 'id' | 'name'>,
  deleted: Array<{ id: string; email: string }>,
  scope: ContactAuditScope,
): Promise<void> {
  if (deleted.length === 0) return;
  const by = byPrincipal(principal);
  if (scope === 'batch') {
    await recordBulkAudit(tx, deps, {
      organizationId: principal.organizationId,
      by,
      action: 'contact.batch_deleted',
      target: { type: 'audience', id: audience.id, label: audience.name },
      counts: { deleted: deleted.length },
    });
    return;
  }
  const [contact] = deleted;
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by,
    action: 'contact.deleted',
    target: { type: 'contact', id: contact!.id, label: contact!.email },
    details: inAudience(audience),
  });
}
