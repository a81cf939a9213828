import { and, eq, inArray, sql } from 'drizzle-orm';
import { audienceMemberships, audiences, consentEntries, contacts, emails, events, organizations, suppressions } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../errors';
import { forgetAddressInAuditLog } from '../audit/forget-address';
import { forgetAddressInAutomations } from '../automations';
import { forgetAddressInImports } from '../contact-imports/forget-address';
import { declareConsentSource } from '../consent/source';
import { forgetAddressInFormSubmissions } from '../forms';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import { suppressionHash } from '../suppressions/address-hash';
import { hashedAddressLabel } from '../suppressions/audit';
import type { SuppressionReason } from '../../vocabulary/suppression-reasons';
import { contactsOf, emailsOf, eventsOf, suppressionsOf } from './address-match';
import { requireLiveCaller, requireOrganizationAuthority } from './authority';
import { DATA_SUBJECT_MESSAGE } from './recipient-data';
import { subjectAddress } from './subject-address';

/** The reasons that mean the person asked not to be mailed: their entry survives erasure, as a hash. */
export const KEPT_REASONS: readonly SuppressionReason[] = ['unsubscribe', 'complaint', 'manual'];

/** Ids per DELETE statement: well under Postgres's 65,535 parameters, however many emails an address has. */
const IDS_PER_STATEMENT = 1_000;

export interface ErasureResult {
  email: string;
  erased: { emails: number; events: number; contacts: number; suppressions: number };
  /** The entry kept (as a hash) because the address asked not to be mailed; null when none was. */
  keptSuppression: { id: string; reason: SuppressionReason } | null;
  /** Consent-ledger entries kept with the address replaced by its hash (docs/consent.md). */
  consentEntriesHashed: number;
}

/**
 * The address's consent-ledger entries stay, as the proof of what the person agreed to and when
 * they opted out, with the address replaced by its keyed hash and their client's address and
 * agent dropped: the ledger's one permitted rewrite (migration 0042).
 */
async function hashConsentEntries(tx: Db, organizationId: string, address: string, hash: string): Promise<number> {
  const hashed = await tx
    .update(consentEntries)
    .set({ email: null, emailHash: hash, clientAddress: null, userAgent: null })
    .where(and(eq(consentEntries.organizationId, organizationId), eq(consentEntries.email, address)))
    .returning({ id: consentEntries.id });
  return hashed.length;
}

async function deleteEmails(tx: Db, ids: string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    // Their history, attachments and tracking records go with them (foreign keys, cascade).
    await tx.delete(emails).where(inArray(emails.id, ids.slice(start, start + IDS_PER_STATEMENT)));
  }
}

/**
 * Deletes the address's contact (with its memberships, topic choices and former ids) and takes it
 * off its audiences' counts and the organization's (the plan's contact cap reads that). Answers
 * what `erased.contacts` counts: its memberships (the spec's contacts, one per audience), or 1 for
 * a contact in no audience.
 */
async function deleteContacts(tx: Db, organizationId: string, address: string): Promise<number> {
  const memberships = await tx
    .select({ audienceId: audienceMemberships.audienceId })
    .from(audienceMemberships)
    .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
    .where(contactsOf(organizationId, address));
  const removed = await tx.delete(contacts).where(contactsOf(organizationId, address)).returning({ id: contacts.id });
  if (removed.length === 0) return 0;
  for (const { audienceId } of memberships) {
    await tx.update(audiences).set({ contactCount: sql`${audiences.contactCount} - 1` }).where(eq(audiences.id, audienceId));
  }
  await tx.update(organizations).set({ contactCount: sql`${organizations.contactCount} - ${removed.length}` }).where(eq(organizations.id, organizationId));
  return Math.max(memberships.length, removed.length);
}

/**
 * The address's suppression entries: all deleted, except that when one says the person asked not
 * to be mailed, one entry stays with the address replaced by its hash (and no email named), so
 * sends to the address are still suppressed.
 */
async function reduceSuppressions(
  tx: Db,
  organizationId: string,
  address: string,
  hash: string,
): Promise<{ deleted: number; hashedNow: boolean; kept: ErasureResult['keptSuppression'] }> {
  const entries = await tx.select().from(suppressions).where(suppressionsOf(organizationId, address, hash)).orderBy(suppressions.id).for('update');
  const asked = entries.filter((entry) => KEPT_REASONS.includes(entry.reason));
  // An address erased before already has its hashed entry: that one stands.
  const keeper = asked.find((entry) => entry.email === null) ?? asked[0] ?? null;
  const hashedNow = keeper !== null && keeper.email !== null;
  if (hashedNow) {
    await tx.update(suppressions).set({ email: null, emailHash: hash, emailId: null }).where(eq(suppressions.id, keeper.id));
  }
  const others = entries.filter((entry) => entry.id !== keeper?.id).map((entry) => entry.id);
  if (others.length > 0) await tx.delete(suppressions).where(inArray(suppressions.id, others));
  return { deleted: others.length, hashedNow, kept: keeper ? { id: keeper.id, reason: keeper.reason } : null };
}

/**
 * Erases what the organization holds for `given` (GDPR Art. 17), both modes, in one transaction:
 * its emails (to or from it) with their history, attachments and tracking records, the event-log
 * rows about it with their webhook deliveries, its contacts in every audience, and its suppression
 * entries but the one kept as a hash (reduceSuppressions), and the address in the labels of audit
 * entries about its contacts and suppression entries (the hash takes its place), the rows imports listed as not
 * imported that name it, and its automation runs and the events sent for it. Emails not yet handed over (queued,
 * scheduled, waiting for a retry) are erased with the rest, so they are never sent; one a worker
 * holds at this moment makes it a 409, to be tried again once that attempt is recorded. Recorded
 * in the audit log under the address's hash. 404 when nothing is held; an address erased before,
 * of which only the hashed entry is left, answers with zero counts and records nothing.
 */
export async function eraseRecipientData(deps: Pick<Deps, 'db' | 'clock' | 'encryptionKey'>, principal: Principal, given: string): Promise<ErasureResult> {
  await requireOrganizationAuthority(deps, principal, DATA_SUBJECT_MESSAGE);
  requireLiveCaller(principal);
  const address = subjectAddress(given);
  const organizationId = principal.organizationId;
  const hash = suppressionHash(deps.encryptionKey, organizationId, address);
  return deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, { via: 'erasure', at: deps.clock.now() });
    // Locked: a claim waits for (or skips) these rows, so none is handed to a worker meanwhile.
    const held = await tx.select({ id: emails.id, claimedBy: emails.claimedBy }).from(emails).where(emailsOf(organizationId, address)).orderBy(emails.id).for('update');
    const inFlight = held.filter((row) => row.claimedBy !== null).length;
    if (inFlight > 0) {
      throw conflict(`${inFlight} ${inFlight === 1 ? 'email of this address is' : 'emails of this address are'} being handed to a mail server right now; try again in a minute`);
    }
    const loggedEvents = await tx.delete(events).where(eventsOf(organizationId, address)).returning({ id: events.id });
    await deleteEmails(
      tx,
      held.map((row) => row.id),
    );
    const contactCount = await deleteContacts(tx, organizationId, address);
    const suppression = await reduceSuppressions(tx, organizationId, address, hash);
    const auditLabels = await forgetAddressInAuditLog(tx, organizationId, address, hashedAddressLabel(hash));
    const importErrors = await forgetAddressInImports(tx, organizationId, address);
    const consentEntriesHashed = await hashConsentEntries(tx, organizationId, address, hash);
    const formSubmissions = await forgetAddressInFormSubmissions(tx, organizationId, address);
    const automationRows = await forgetAddressInAutomations(
      tx,
      organizationId,
      address,
      held.map((row) => row.id),
    );
    const erased = { emails: held.length, events: loggedEvents.length, contacts: contactCount, suppressions: suppression.deleted };
    const changed = erased.emails + erased.events + erased.contacts + erased.suppressions + auditLabels + importErrors + formSubmissions + automationRows + consentEntriesHashed > 0 || suppression.hashedNow;
    if (!changed && !suppression.kept) throw notFound('Data for this address');
    // Erased before, with only its hash left: nothing changes, and nothing is recorded.
    if (!changed) return { email: address, erased, keptSuppression: suppression.kept, consentEntriesHashed };
    await recordAudit(tx, deps, {
      organizationId,
      by: byPrincipal(principal),
      action: 'recipient.erased',
      target: { type: 'recipient', id: hash, label: hashedAddressLabel(hash) },
      details: { ...erased, auditLabels, consentEntriesHashed, suppressionKept: suppression.kept?.reason ?? null },
    });
    return { email: address, erased, keptSuppression: suppression.kept, consentEntriesHashed };
  });
}
