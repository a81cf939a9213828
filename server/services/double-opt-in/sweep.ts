import { and, eq, inArray, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import { audienceMemberships, audiences, contactConfirmations, contacts, organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { declareConsentSource } from '../consent/source';
import { logEvents } from '../shared/events';
import { DAY_MS } from '../shared/time';
import { UNCONFIRMED_CONTACT_DAYS } from './rules';

/** Contacts deleted per transaction: a batch holds their rows locked for a moment only. */
const BATCH = 500;

/**
 * The due work `unconfirmed-contacts` (docs/consent.md): contacts still pending
 * UNCONFIRMED_CONTACT_DAYS after the last confirmation mailed to them are deleted, from every
 * audience, with their topic choices and values, as `DELETE /contacts/{idOrEmail}` deletes one
 * (`contact.deleted` for each, the counts); the transaction declares `retention`. Nobody agreed,
 * so nothing is kept but the ledger's entries. Answers how many were deleted.
 */
export async function deleteUnconfirmedContacts(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const cutoff = new Date(now.getTime() - UNCONFIRMED_CONTACT_DAYS * DAY_MS);
      const due = await tx
        .select({ id: contacts.id, organizationId: contacts.organizationId, email: contacts.email, name: contacts.name })
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
      if (due.length === 0) return 0;
      await declareConsentSource(tx, { via: 'retention', at: now });
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
      await tx.delete(contacts).where(inArray(contacts.id, ids));
      const perOrganization = new Map<string, number>();
      for (const { organizationId } of due) perOrganization.set(organizationId, (perOrganization.get(organizationId) ?? 0) + 1);
      for (const [organizationId, count] of perOrganization) {
        await tx
          .update(organizations)
          .set({ contactCount: sql`${organizations.contactCount} - ${count}` })
          .where(eq(organizations.id, organizationId));
      }
      await logEvents(
        tx,
        deps,
        due.map((row) => ({
          id: newId(),
          organizationId: row.organizationId,
          type: 'contact.deleted' as const,
          data: { contactId: row.id, audienceId: null, email: row.email, name: row.name, reason: 'unconfirmed' },
          createdAt: now,
        })),
      );
      return due.length;
    });
    deleted += batch;
    if (batch < BATCH) return deleted;
  }
}
