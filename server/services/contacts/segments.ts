import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { ownAudience } from '../audiences/crud';
import { refuseRuleSegment } from '../segments/crud';
import { byPrincipal, recordAudit } from '../audit/record';
import { recordEvent } from '../shared/events';
import type { Principal } from '../shared/principal';
import { ownContact, type ContactRow } from './own';
import type { ContactTarget } from './target';
import { declareConsentSource, sourceOfPrincipal } from '../consent/source';
import { logConsentChanges } from '../consent/events';
import { addedToSegment } from '../automations/triggers/contact-events';
import { raiseEvents } from '../automations/triggers/raise';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'jobs'>;

/** A segment (audience) a contact is in, with its subscription there. */
export interface ContactSegmentView {
  id: string;
  name: string;
  subscribed: boolean;
  /** When the contact joined it. */
  joinedAt: string;
}

/** What a `contact.*` event says of a contact in one segment (audience). */
export const memberEvent = (contact: Pick<ContactRow, 'id' | 'email' | 'name'>, audienceId: string, subscribed: boolean) => ({ contactId: contact.id, audienceId, email: contact.email, name: contact.name, subscribed });

/**
 * The contact joins the segment (audience), subscribed, in the caller's transaction: the
 * audience's count and `contact.created` for it, as the spec's routes do. Already in it: nothing
 * changes (its subscription there stands). Answers whether it joined.
 */
export async function joinSegment(tx: Db, deps: WriteDeps, principal: Principal, contact: ContactRow, segmentId: string): Promise<boolean> {
  const audience = await ownAudience(tx, principal, segmentId);
  refuseRuleSegment(audience);
  const now = deps.clock.now();
  const joined = await tx
    .insert(audienceMemberships)
    .values({ id: newId(), audienceId: audience.id, contactId: contact.id, organizationId: principal.organizationId, subscribed: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: audienceMemberships.id });
  if (joined.length === 0) return false;
  await tx
    .update(audiences)
    .set({ contactCount: sql`${audiences.contactCount} + 1` })
    .where(eq(audiences.id, audience.id));
  await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'contact.created', data: memberEvent(contact, audience.id, true) });
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: 'contact.created',
    target: { type: 'contact', id: contact.id, label: contact.email },
    details: { audienceId: audience.id, audience: audience.name, subscribed: true },
  });
  if (contact.pendingSince === null) await raiseEvents(tx, deps, { organizationId: principal.organizationId, test: principal.mode === 'test' }, [addedToSegment(audience.id, [contact])]);
  return true;
}

export async function listContactSegments(deps: Pick<Deps, 'db'>, principal: Principal, target: ContactTarget): Promise<ContactSegmentView[]> {
  const contact = await ownContact(deps.db, principal, target);
  const rows = await deps.db
    .select({ id: audiences.id, name: audiences.name, subscribed: audienceMemberships.subscribed, joinedAt: audienceMemberships.createdAt })
    .from(audienceMemberships)
    .innerJoin(audiences, eq(audiences.id, audienceMemberships.audienceId))
    .where(eq(audienceMemberships.contactId, contact.id))
    .orderBy(asc(audiences.id));
  return rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() }));
}

/** `POST /contacts/{idOrEmail}/segments/{segmentId}`: the contact joins it (nothing changes when it is in it already). */
export async function addContactToSegment(deps: WriteDeps, principal: Principal, target: ContactTarget, segmentId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, sourceOfPrincipal(principal));
    const contact = await ownContact(tx, principal, target, { lock: true });
    await joinSegment(tx, deps, principal, contact, segmentId);
    await logConsentChanges(tx, deps);
  });
}

/**
 * `DELETE /contacts/{idOrEmail}/segments/{segmentId}`: the contact leaves the segment and stays in
 * the organization (Resend's rule; the spec's audience routes delete a contact left in none).
 * 404 when it is not in it.
 */
export async function removeContactFromSegment(deps: WriteDeps, principal: Principal, target: ContactTarget, segmentId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const contact = await ownContact(tx, principal, target, { lock: true });
    const audience = await ownAudience(tx, principal, segmentId);
    refuseRuleSegment(audience);
    const [left] = await tx
      .delete(audienceMemberships)
      .where(and(eq(audienceMemberships.audienceId, audience.id), eq(audienceMemberships.contactId, contact.id)))
      .returning({ subscribed: audienceMemberships.subscribed });
    if (!left) throw new AppError('NOT_FOUND', 'The contact is not in this segment');
    await tx
      .update(audiences)
      .set({ contactCount: sql`${audiences.contactCount} - 1` })
      .where(eq(audiences.id, audience.id));
    await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'contact.deleted', data: memberEvent(contact, audience.id, left.subscribed) });
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'contact.deleted',
      target: { type: 'contact', id: contact.id, label: contact.email },
      details: { audienceId: audience.id, audience: audience.name },
    });
  });
}
