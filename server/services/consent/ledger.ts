import { and, asc, eq, gt, or, type SQL } from 'drizzle-orm';
import { consentEntries, contacts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import type { ConsentAction, ConsentVia } from '../../vocabulary/consent';
import { canonicalContactId } from '../contacts/aliases';
import { contactAddressOrRefuse } from '../contacts/fields';
import type { ContactTarget } from '../contacts/target';
import type { Principal } from '../shared/principal';

type EntryRow = typeof consentEntries.$inferSelect;

export interface ConsentEntryView {
  /** The entry's place in the ledger: later entries have larger ids. */
  id: string;
  action: ConsentAction;
  /** The address as it was when written; null once erased (the keyed hash stands in for it). */
  email: string | null;
  audienceId: string | null;
  topicId: string | null;
  via: ConsentVia;
  apiKeyId: string | null;
  userId: string | null;
  importId: string | null;
  formId: string | null;
  formVersion: number | null;
  emailId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  createdAt: string;
}

export const consentEntryView = (row: EntryRow): ConsentEntryView => ({
  id: String(row.id),
  action: row.action,
  email: row.email,
  audienceId: row.audienceId,
  topicId: row.topicId,
  via: row.via,
  apiKeyId: row.apiKeyId,
  userId: row.userId,
  importId: row.importId,
  formId: row.formId,
  formVersion: row.formVersion,
  emailId: row.emailId,
  clientAddress: row.clientAddress,
  userAgent: row.userAgent,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Which entries a path's contact names. A contact that exists: its entries by id, and those
 * written for its address while no contact held it (a suppression of an address not yet a
 * contact). One that is gone: the entries still naming it (by its address, or by its id), since
 * the proof of an opt-out outlives the contact. 404 when the ledger has nothing.
 */
async function entriesOf(db: Db, organizationId: string, target: ContactTarget): Promise<{ condition: SQL; contactExists: boolean }> {
  const byAddress = 'email' in target ? contactAddressOrRefuse(target.email, 'idOrEmail') : null;
  const id = 'id' in target ? await canonicalContactId(db, organizationId, target.id) : null;
  const [contact] = await db
    .select({ id: contacts.id, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.organizationId, organizationId), id ? eq(contacts.id, id) : eq(contacts.email, byAddress!)));
  if (contact) return { condition: or(eq(consentEntries.contactId, contact.id), eq(consentEntries.email, contact.email))!, contactExists: true };
  return { condition: id ? eq(consentEntries.contactId, id) : eq(consentEntries.email, byAddress!), contactExists: false };
}

/**
 * `GET /contacts/{idOrEmail}/consent`: the contact's consent ledger, oldest first from a cursor
 * (an entry id), as a regulator would read it.
 */
export async function listContactConsent(
  deps: Pick<Deps, 'db'>,
  principal: Principal,
  target: ContactTarget,
  query: { after?: string; limit: number },
): Promise<{ data: ConsentEntryView[]; nextCursor: string | null; hasMore: boolean }> {
  const { condition, contactExists } = await entriesOf(deps.db, principal.organizationId, target);
  const conditions = [eq(consentEntries.organizationId, principal.organizationId), condition];
  if (query.after) conditions.push(gt(consentEntries.id, Number(query.after)));
  const rows = await deps.db
    .select()
    .from(consentEntries)
    .where(and(...conditions))
    .orderBy(asc(consentEntries.id))
    .limit(query.limit + 1);
  // A contact that is gone is known by its entries alone: past its last one, only a page of them tells.
  if (rows.length === 0 && !contactExists) {
    const [any] = await deps.db.select({ id: consentEntries.id }).from(consentEntries).where(and(conditions[0], condition)).limit(1);
    if (!any) throw notFound('Contact');
  }
  const hasMore = rows.length > query.limit;
  const data = rows.slice(0, query.limit).map(consentEntryView);
  return { data, nextCursor: data.at(-1)?.id ?? query.after ?? null, hasMore };
}
