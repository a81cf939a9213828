import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences, contacts, organizations, type ContactPropertyValue } from '@/db/schema';
import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { newId } from '../../ids';
import { declareConsentSource, sourceOfPrincipal, type ConsentSource } from '../consent/source';
import { requestConfirmation, wakeConfirmation, type ConfirmationSender, type RequestedConfirmation } from '../double-opt-in/request';
import { byPrincipal, recordAudit } from '../audit/record';
import { propertyChangesOf, withPropertyChanges, type PropertyChanges } from '../contact-properties/assign';
import { recordEvent } from '../shared/events';
import type { Principal } from '../shared/principal';
import { refusePastContactCap } from './cap';
import { contactAddressOrRefuse } from './fields';
import { namesAfter, NO_NAMES, type ContactNames } from './names';
import { ownContact, type ContactRow } from './own';
import { profileView, type ContactProfileView } from './profile';
import { joinSegment } from './segments';
import type { ContactTarget } from './target';
import { setTopicSubscriptions, type TopicChoice } from '../topics/subscriptions';
import { logConsentChanges } from '../consent/events';
import { contactCreated } from '../automations/triggers/contact-events';
import { raiseEvents } from '../automations/triggers/raise';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'jobs'>;

export interface ContactProfileChanges {
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  unsubscribed?: boolean;
  /** `null` clears a value. */
  properties?: Record<string, unknown>;
}

export interface NewContactProfile extends ContactProfileChanges {
  email: string;
  /** Segments (audiences) it joins, subscribed. */
  segmentIds?: string[];
  /** Its choices about topics (Resend's `topics: [{ id, subscription }]`). */
  topics?: TopicChoice[];
  /**
   * Double opt-in (docs/consent.md): the contact is pending until it clicks the link mailed from
   * `sender`; the segments and topics are joined then, not now.
   */
  doubleOptIn?: { sender: ConfirmationSender };
}

const sameValues = (a: Record<string, ContactPropertyValue>, b: Record<string, ContactPropertyValue>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);

/** What a write changes on the contact, by field name (for the audit log); empty when nothing. */
export function changedFields(row: ContactNames & { unsubscribed: boolean; properties: Record<string, ContactPropertyValue> }, next: typeof row): string[] {
  const fields: string[] = [];
  for (const key of ['name', 'firstName', 'lastName', 'unsubscribed'] as const) if (row[key] !== next[key]) fields.push(key);
  if (!sameValues(row.properties, next.properties)) fields.push('properties');
  return fields;
}

/** What a `contact.*` event says of a contact of the organization (no segment: `audienceId` null). */
export const eventData = (row: ContactRow, audienceId: string | null = null) => ({
  contactId: row.id,
  audienceId,
  email: row.email,
  name: row.name,
  firstName: row.firstName,
  lastName: row.lastName,
  unsubscribed: row.unsubscribed,
  subscribed: !row.unsubscribed,
  pending: row.pendingSince !== null,
});

/**
 * Adds a contact to the organization, or updates the one of that address (same id): the rules of
 * the spec's contact create, so a create never removes an opt-out (`unsubscribed: false` leaves an
 * unsubscribed contact as it is; PATCH changes it). It then joins the given segments, subscribed
 * (with `doubleOptIn`, once it confirms). The plan's cap counts a new address.
 */
export async function createContactProfile(deps: Deps, principal: Principal, input: NewContactProfile): Promise<{ contact: ContactProfileView; created: boolean }> {
  const outcome = await deps.db.transaction((tx) => createContactProfileIn(tx, deps, principal, input, sourceOfPrincipal(principal)));
  if (outcome.confirmation) wakeConfirmation(deps, outcome.confirmation);
  return { contact: outcome.contact, created: outcome.created };
}

export interface CreatedContactProfile {
  contact: ContactProfileView;
  created: boolean;
  /** With `doubleOptIn`: the confirmation asked for, whose email the caller wakes (`wakeConfirmation`) once its transaction has committed. */
  confirmation: RequestedConfirmation | null;
}

/**
 * `createContactProfile` in the caller's transaction, declaring `source` for the ledger: what a
 * hosted form calls with its organization's principal and `{ via: 'form', formId, formVersion,
 * clientAddress, userAgent }`, `doubleOptIn` naming the form's sender and template, and the
 * form's segments and topics (joined on confirmation).
 */
export async function createContactProfileIn(tx: Db, deps: Deps, principal: Principal, input: NewContactProfile, source: ConsentSource): Promise<CreatedContactProfile> {
  const email = contactAddressOrRefuse(input.email, 'email');
  if (input.doubleOptIn && input.unsubscribed === true) throw validationError('double_opt_in: a contact unsubscribed from everything is not asked to confirm; leave out one of the two');
  const changes = await propertyChangesOf(tx, principal.organizationId, input.properties);
  const now = deps.clock.now();
  await declareConsentSource(tx, source);
  await refusePastContactCap(tx, { organizationId: principal.organizationId, emails: [email], now });
  const [existing] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.organizationId, principal.organizationId), eq(contacts.email, email)))
    .for('update');
  let written = existing ? await rewrite(tx, deps, principal, existing, { ...input, unsubscribed: existing.unsubscribed || input.unsubscribed === true }, changes) : await insert(tx, deps, principal, email, input, changes);
  let confirmation: RequestedConfirmation | null = null;
  if (input.doubleOptIn) {
    confirmation = await requestConfirmation(tx, deps, { principal, contactId: written.id, sender: input.doubleOptIn.sender, join: { audienceIds: input.segmentIds, topics: input.topics }, source });
    if (confirmation.status === 'sent') written = (await tx.select().from(contacts).where(eq(contacts.id, written.id)))[0]!;
  }
  // Confirmed before (or no double opt-in): what the request joins is joined now.
  if (!confirmation || confirmation.status === 'already_confirmed') {
    for (const segmentId of [...new Set(input.segmentIds ?? [])]) await joinSegment(tx, deps, principal, written, segmentId);
    await setTopicSubscriptions(tx, deps, principal, written.id, input.topics ?? []);
  }
  await logConsentChanges(tx, deps);
  return { contact: profileView(written), created: !existing, confirmation };
}

async function insert(tx: Db, deps: WriteDeps, principal: Principal, email: string, input: NewContactProfile, changes: PropertyChanges): Promise<ContactRow> {
  const now = deps.clock.now();
  const [row] = await tx
    .insert(contacts)
    .values({
      id: newId(),
      organizationId: principal.organizationId,
      email,
      ...namesAfter(NO_NAMES, input),
      // Asked to confirm: pending from the start, so its first ledger entry says `pending`.
      unsubscribed: input.doubleOptIn ? true : (input.unsubscribed ?? false),
      pendingSince: input.doubleOptIn ? now : null,
      properties: withPropertyChanges({}, changes),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx
    .update(organizations)
    .set({ contactCount: sql`${organizations.contactCount} + 1` })
    .where(eq(organizations.id, principal.organizationId));
  await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'contact.created', data: eventData(row!) });
  await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'contact.created', target: { type: 'contact', id: row!.id, label: email }, details: { unsubscribed: row!.unsubscribed } });
  // A pending contact is created for automations when it confirms (double-opt-in/confirm.ts).
  if (!row!.unsubscribed) await raiseEvents(tx, deps, { organizationId: principal.organizationId, test: principal.mode === 'test' }, [contactCreated([row!])]);
  return row!;
}

/**
 * The contact with the changes written (and its event and audit entry), or as it was when they
 * change nothing. With `settlePending` (PATCH), a pending contact whose `unsubscribed` is given
 * is no longer pending: subscribed (the organization's own call, not a confirmation) or not.
 */
async function rewrite(tx: Db, deps: WriteDeps, principal: Principal, row: ContactRow, input: ContactProfileChanges, changes: PropertyChanges, settlePending = false): Promise<ContactRow> {
  const next = { ...namesAfter(row, input), unsubscribed: input.unsubscribed ?? row.unsubscribed, properties: withPropertyChanges(row.properties, changes) };
  const fields = changedFields(row, next);
  const settles = settlePending && row.pendingSince !== null && input.unsubscribed !== undefined;
  if (settles) fields.push('pending');
  if (fields.length === 0) return row;
  const [updated] = await tx
    .update(contacts)
    .set({ ...next, ...(settles ? { pendingSince: null } : {}), updatedAt: deps.clock.now() })
    .where(eq(contacts.id, row.id))
    .returning();
  await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'contact.updated', data: eventData(updated!) });
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'contact.updated',
    target: { type: 'contact', id: row.id, label: row.email },
    details: { fields, unsubscribed: updated!.unsubscribed },
  });
  return updated!;
}

/** Changes what is given (`PATCH /contacts/{idOrEmail}`): names, the global `unsubscribed` (either way: an act of the account), property values. */
export async function updateContactProfile(deps: WriteDeps, principal: Principal, target: ContactTarget, input: ContactProfileChanges): Promise<ContactProfileView> {
  const changes = await propertyChangesOf(deps.db, principal.organizationId, input.properties);
  return deps.db.transaction(async (tx) => {
    const row = await ownContact(tx, principal, target, { lock: true });
    return profileView(await updateContactIn(tx, deps, principal, row, input, changes));
  });
}

/**
 * The contact, held for update by the caller, changed in the caller's transaction (an automation's
 * `contact_update` step): the consent source is the principal, the ledger records an opt-out or back.
 */
export async function updateContactIn(tx: Db, deps: WriteDeps, principal: Principal, row: ContactRow, input: ContactProfileChanges, changes?: PropertyChanges): Promise<ContactRow> {
  const resolved = changes ?? (await propertyChangesOf(tx, principal.organizationId, input.properties));
  await declareConsentSource(tx, sourceOfPrincipal(principal));
  const written = await rewrite(tx, deps, principal, row, input, resolved, true);
  await logConsentChanges(tx, deps);
  return written;
}

/** Deletes the contact from everything: every audience it is in (their counts), its topic choices and values, the organization's count. */
export async function deleteContactProfile(deps: WriteDeps, principal: Principal, target: ContactTarget): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await ownContact(tx, principal, target, { lock: true });
    await deleteContactIn(tx, deps, principal, row);
  });
}

/** {@link deleteContactProfile} of a contact the caller holds for update, in its transaction (an automation's `contact_delete` step). */
export async function deleteContactIn(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, principal: Principal, row: ContactRow): Promise<void> {
  const left = await tx.delete(audienceMemberships).where(eq(audienceMemberships.contactId, row.id)).returning({ audienceId: audienceMemberships.audienceId });
  if (left.length > 0) {
    await tx
      .update(audiences)
      .set({ contactCount: sql`${audiences.contactCount} - 1` })
      .where(inArray(audiences.id, left.map((membership) => membership.audienceId)));
  }
  await tx.delete(contacts).where(eq(contacts.id, row.id));
  await tx
    .update(organizations)
    .set({ contactCount: sql`${organizations.contactCount} - 1` })
    .where(eq(organizations.id, principal.organizationId));
  await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'contact.deleted', data: eventData(row) });
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'contact.deleted',
    target: { type: 'contact', id: row.id, label: row.email },
    details: { audiences: left.length },
  });
}
