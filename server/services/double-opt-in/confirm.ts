import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences, contactConfirmations, contacts, organizations, topics } from '@/db/schema';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { declareConsentSource } from '../consent/source';
import { memberEvent } from '../contacts/segments';
import { recordEvent } from '../shared/events';
import { setTopicSubscriptions } from '../topics/subscriptions';
import { openConfirmationToken } from './tokens';
import { logConsentChanges } from '../consent/events';
import { addedToSegment, contactCreated } from '../automations/triggers/contact-events';
import { raiseEvents } from '../automations/triggers/raise';

/**
 * Where a confirmation link stands: `valid` (it would confirm), `confirmed` (this request confirmed
 * it), `already` (confirmed before: confirming twice changes nothing), `expired`, `settled` (the
 * contact is no longer pending: the organization subscribed or unsubscribed it meanwhile), or
 * `unknown` (not a link of ours, or its contact was deleted).
 */
export type ConfirmationState = 'valid' | 'confirmed' | 'already' | 'expired' | 'settled' | 'unknown';

export interface ConfirmationOutcome<State extends ConfirmationState = ConfirmationState> {
  state: State;
  email: string | null;
  organization: string | null;
}

/** The person's own client, recorded on the ledger's `confirmed` entry (docs/consent.md says why and for how long). */
export interface ConfirmingClient {
  clientAddress: string | null;
  userAgent: string | null;
}

type ConfirmDeps = Pick<Deps, 'db' | 'clock' | 'jobs' | 'encryptionKey'>;

const UNKNOWN = { state: 'unknown', email: null, organization: null } as const;

async function linkOf(db: Db, deps: ConfirmDeps, token: string, lock: boolean) {
  const link = openConfirmationToken(deps.encryptionKey, token);
  if (!link) return null;
  const query = db
    .select({ confirmation: contactConfirmations, contact: contacts, organization: organizations.name })
    .from(contactConfirmations)
    .innerJoin(contacts, eq(contacts.id, contactConfirmations.contactId))
    .innerJoin(organizations, eq(organizations.id, contactConfirmations.organizationId))
    .where(eq(contactConfirmations.id, link.confirmationId));
  const [row] = await (lock ? query.for('update', { of: [contactConfirmations, contacts] }) : query);
  return row ?? null;
}

function stateOf(row: NonNullable<Awaited<ReturnType<typeof linkOf>>>, now: Date): Exclude<ConfirmationState, 'confirmed' | 'unknown'> {
  const { confirmation, contact } = row;
  if (confirmation.confirmedAt) return 'already';
  if (contact.pendingSince === null) return !contact.unsubscribed && contact.confirmedAt !== null ? 'already' : 'settled';
  if (confirmation.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'valid';
}

/** `GET /confirm-subscription/<token>`: what the page says. Changes nothing: mail scanners follow links. */
export async function describeConfirmation(deps: ConfirmDeps, token: string): Promise<ConfirmationOutcome<Exclude<ConfirmationState, 'confirmed'>>> {
  const row = await linkOf(deps.db, deps, token, false);
  if (!row) return UNKNOWN;
  return { state: stateOf(row, deps.clock.now()), email: row.contact.email, organization: row.organization };
}

/**
 * `POST /confirm-subscription/<token>`, the page's button: the contact is no longer pending and
 * is subscribed (the ledger's `confirmed` entry, via `confirmation`, with the email, the client's
 * address and user agent, and the form it came from), joins the lists and makes the topic choices
 * the confirmation was asked with (those deleted since are passed over), and `contact.confirmed`
 * goes to webhooks. A link confirmed, expired or settled changes nothing.
 */
export async function confirmSubscription(deps: ConfirmDeps, token: string, client: ConfirmingClient): Promise<ConfirmationOutcome<Exclude<ConfirmationState, 'valid'>>> {
  return deps.db.transaction(async (tx) => {
    const row = await linkOf(tx, deps, token, true);
    if (!row) return UNKNOWN;
    const now = deps.clock.now();
    const state = stateOf(row, now);
    const outcome = { email: row.contact.email, organization: row.organization };
    if (state !== 'valid') return { state, ...outcome };
    // Valid: this request confirms it.
    const { confirmation } = row;
    await declareConsentSource(tx, {
      via: 'confirmation',
      emailId: confirmation.emailId,
      formId: confirmation.formId,
      formVersion: confirmation.formVersion,
      clientAddress: client.clientAddress,
      userAgent: client.userAgent,
    });
    const [contact] = await tx.update(contacts).set({ pendingSince: null, unsubscribed: false, confirmedAt: now, updatedAt: now }).where(eq(contacts.id, row.contact.id)).returning();
    await tx.update(contactConfirmations).set({ confirmedAt: now }).where(eq(contactConfirmations.id, confirmation.id));
    // Pending since it was made: this is when it is created for automations (docs/automations.md).
    if (row.contact.pendingSince?.getTime() === row.contact.createdAt.getTime()) await raiseEvents(tx, deps, contact!, [contactCreated([contact!])]);
    const audienceIds = await joinLists(tx, deps, contact!, confirmation.audienceIds, now);
    const topicIds = await chooseTopics(tx, deps, contact!, confirmation.topics);
    await recordEvent(tx, deps, {
      organizationId: contact!.organizationId,
      type: 'contact.confirmed',
      data: {
        contactId: contact!.id,
        audienceId: null,
        email: contact!.email,
        name: contact!.name,
        firstName: contact!.firstName,
        lastName: contact!.lastName,
        unsubscribed: false,
        subscribed: true,
        emailId: confirmation.emailId,
        audienceIds,
        topicIds,
        confirmedAt: now.toISOString(),
      },
    });
    await logConsentChanges(tx, deps);
    return { state: 'confirmed' as const, ...outcome };
  });
}

/** The lists still there join (or are subscribed in again), with the audience's count and `contact.created`/`contact.updated` for it. */
async function joinLists(tx: Db, deps: ConfirmDeps, contact: typeof contacts.$inferSelect, wanted: string[], now: Date): Promise<string[]> {
  if (wanted.length === 0) return [];
  const lists = await tx
    .select({ id: audiences.id })
    .from(audiences)
    .where(and(eq(audiences.organizationId, contact.organizationId), inArray(audiences.id, wanted), sql`${audiences.rules} is null`));
  for (const { id } of lists) {
    const [written] = await tx
      .insert(audienceMemberships)
      .values({ id: newId(), audienceId: id, contactId: contact.id, organizationId: contact.organizationId, subscribed: true, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [audienceMemberships.audienceId, audienceMemberships.contactId], set: { subscribed: true, updatedAt: now }, setWhere: sql`not ${audienceMemberships.subscribed}` })
      .returning({ created: sql<boolean>`xmax = 0` });
    if (!written) continue;
    if (written.created) {
      await tx
        .update(audiences)
        .set({ contactCount: sql`${audiences.contactCount} + 1` })
        .where(eq(audiences.id, id));
      await raiseEvents(tx, deps, contact, [addedToSegment(id, [contact])]);
    }
    await recordEvent(tx, deps, { organizationId: contact.organizationId, type: written.created ? 'contact.created' : 'contact.updated', data: memberEvent(contact, id, true) });
  }
  return lists.map((list) => list.id);
}

/** The topic choices still possible (topics deleted since are passed over), as the contact's own. */
async function chooseTopics(tx: Db, deps: ConfirmDeps, contact: typeof contacts.$inferSelect, choices: Array<{ id: string; subscription: 'opt_in' | 'opt_out' }>): Promise<string[]> {
  if (choices.length === 0) return [];
  const still = new Set(
    (
      await tx
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.organizationId, contact.organizationId), inArray(topics.id, choices.map((choice) => choice.id))))
    ).map((row) => row.id),
  );
  const kept = choices.filter((choice) => still.has(choice.id));
  await setTopicSubscriptions(tx, deps, contact, contact.id, kept);
  return kept.map((choice) => choice.id);
}
