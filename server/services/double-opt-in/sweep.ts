import { and, eq, inArray, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import { audienceMemberships, audiences, consentEntries, contactConfirmations, contacts, organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { logConsentChanges } from '../consent/events';
import { declareConsentSource } from '../consent/source';
import { eventData } from '../contacts/profile-write';
import { logEvents } from '../shared/events';
import { DAY_MS } from '../shared/time';
import { UNCONFIRMED_CONTACT_DAYS } from './rules';

/** Contacts handled per transaction: a batch holds their rows locked for a moment only. */
const BATCH = 500;

export interface UnconfirmedContactsSwept {
  /** Contacts the request made, deleted. */
  deleted: number;
  /** Contacts that were there before the request: no longer pending, left unsubscribed. */
  ended: number;
}

/**
 * Whether the contact is only what a double opt-in request made of it: its ledger holds nothing but
 * the `pending` its creation wrote. A contact that was there before the request (created
 * subscribed or unsubscribed: its first entry says so), or whose standing changed since (an
 * opt-out, the organization's own call, a suppression, a list joined), has other entries. The
 * ledger, not `created_at` against `pending_since`: a contact created and asked in the same
 * instant of the clock would pass for one the request made, and be deleted with its history.
 * For a select from `contacts` (named in full: a one-table select leaves its columns unqualified).
 */
const onlyAsked = sql<boolean>`not exists (
  select 1 from ${consentEntries} other
  where other.organization_id = contacts.organization_id and other.contact_id = contacts.id and other.action <> 'pending'
)`.mapWith(Boolean);

type Due = { id: string; organizationId: string; onlyAsked: boolean };

/**
 * The due work `unconfirmed-contacts` (docs/consent.md): contacts still pending
 * UNCONFIRMED_CONTACT_DAYS after the last confirmation mailed to them. One the request made
 * (its ledger holds only that `pending`) is deleted, from every audience, with its topic choices
 * and values, as `DELETE /contacts/{idOrEmail}` deletes one (`contact.deleted` for each, the
 * counts): nobody agreed, so nothing is kept but the ledger's entries. One that was there before
 * is not deleted, since its row carries its opt-out and its lists' (an import, a create, a form
 * skips an unsubscribed contact; a deleted one would come back subscribed): it stops being pending
 * and stays unsubscribed, as the request left it (the ledger's `unsubscribed`, `contact.updated`).
 * The transaction declares `retention`.
 *
 * Row locks, not a claim (shared/claims/): each batch's work is over when its transaction ends,
 * and a contact another sweep holds is skipped: that sweep handles it, or, rolled back, leaves it
 * to the next one (docs/architecture.md, "Background work").
 */
export async function deleteUnconfirmedContacts(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>): Promise<UnconfirmedContactsSwept> {
  const swept: UnconfirmedContactsSwept = { deleted: 0, ended: 0 };
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const cutoff = new Date(now.getTime() - UNCONFIRMED_CONTACT_DAYS * DAY_MS);
      const due = await tx
        .select({ id: contacts.id, organizationId: contacts.organizationId, onlyAsked })
        .from(contacts)
        .where(
          and(
            isNotNull(contacts.pendingSince),
            lt(contacts.pendingSince, cutoff),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(contactConfirmations)
                .where(and(eq(contactConfirmations.contactId, contacts.id), sql`${contactConfirmations.createdAt} >= ${cutoff.toISOString()}::timestamptz`)),
            ),
          ),
        )
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return { found: 0, deleted: 0, ended: 0 };
      await declareConsentSource(tx, { via: 'retention', at: now });
      const made = due.filter((row) => row.onlyAsked);
      const before = due.filter((row) => !row.onlyAsked);
      await deleteMade(tx, deps, made, now);
      await endPending(tx, deps, before, now);
      return { found: due.length, deleted: made.length, ended: before.length };
    });
    swept.deleted += batch.deleted;
    swept.ended += batch.ended;
    if (batch.found < BATCH) return swept;
  }
}

async function deleteMade(tx: Db, deps: Pick<Deps, 'jobs'>, due: Due[], now: Date): Promise<void> {
  if (due.length === 0) return;
  const ids = due.map((row) => row.id);
  const left = await tx.delete(audienceMemberships).where(inArray(audienceMemberships.contactId, ids)).returning({ audienceId: audienceMemberships.audienceId });
  const perAudience = new Map<string, number>();
  for (const { audienceId } of left) perAudience.set(audienceId, (perAudience.get(audienceId) ?? 0) + 1);
  for (const [audienceId, count] of perAudience) {
    await tx
      .update(audiences)
      .set({ contactCount: sql`${audiences.contactCount} - ${count}` })
      .where(eq(audiences.id, audienceId));
  }
  const gone = await tx.delete(contacts).where(inArray(contacts.id, ids)).returning({ id: contacts.id, organizationId: contacts.organizationId, email: contacts.email, name: contacts.name });
  const perOrganization = new Map<string, number>();
  for (const { organizationId } of gone) perOrganization.set(organizationId, (perOrganization.get(organizationId) ?? 0) + 1);
  for (const [organizationId, count] of perOrganization) {
    await tx
      .update(organizations)
      .set({ contactCount: sql`${organizations.contactCount} - ${count}` })
      .where(eq(organizations.id, organizationId));
  }
  await logEvents(
    tx,
    deps,
    gone.map((row) => ({
      id: newId(),
      organizationId: row.organizationId,
      type: 'contact.deleted' as const,
      data: { contactId: row.id, audienceId: null, email: row.email, name: row.name, reason: 'unconfirmed' },
      createdAt: now,
    })),
  );
}

/** Pending ends, `unsubscribed` stays: the trigger of migration 0046 appends `unsubscribed` via the declared `retention`. */
async function endPending(tx: Db, deps: Pick<Deps, 'jobs'>, due: Due[], now: Date): Promise<void> {
  if (due.length === 0) return;
  const ended = await tx
    .update(contacts)
    .set({ pendingSince: null, updatedAt: now })
    .where(inArray(contacts.id, due.map((row) => row.id)))
    .returning();
  await logEvents(
    tx,
    deps,
    ended.map((row) => ({ id: newId(), organizationId: row.organizationId, type: 'contact.updated' as const, data: { ...eventData(row), reason: 'unconfirmed' }, createdAt: now })),
  );
  await logConsentChanges(tx, deps);
}
