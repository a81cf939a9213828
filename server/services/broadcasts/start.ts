import { and, desc, eq, sql } from 'drizzle-orm';
import { audienceMemberships, audiences, broadcasts, contacts, domains, templates } from '@/db/schema';
import { receivesBroadcasts } from '../contacts/fields';
import { consentRequirement } from '../consent/confirmed';
import { raiseRuleSegmentJoins } from '../automations/triggers/rule-segments';
import { evaluateIfRuleSegment } from '../segments/evaluate';
import { broadcastTopic } from '../topics/recipients';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { listMailRefusal } from '../emails/accept/list-mail-refusal';
import { parseMailbox } from '../shared/addresses';
import { recordBroadcastEvent } from './events';
import type { BroadcastRow } from './view';

/**
 * Why the broadcast cannot be sent now, in the order a person should hear it, or null. Locks the
 * audience's row in share mode, so an audience cannot be deleted under a broadcast that is about
 * to hold it (the delete takes it for update and asks the holds).
 */
export async function sendRefusal(tx: Db, deps: Pick<Deps, 'clock' | 'config'>, row: BroadcastRow): Promise<AppError | null> {
  const refusal = await listMailRefusal(tx, deps, row.organizationId, (plan) => `Broadcasts need a paid plan: move up from ${plan} to send one (test copies work on every plan)`);
  if (refusal) return refusal;
  if (!row.audienceId) return validationError('audience_id: the audience was deleted; choose another one');
  const [audience] = await tx.select({ id: audiences.id }).from(audiences).where(eq(audiences.id, row.audienceId)).for('share');
  if (!audience) return validationError('audience_id: the audience was deleted; choose another one');
  const senderDomain = parseMailbox(row.from).domain;
  if (senderDomain === deps.config.sandboxDomain) {
    return new AppError('DOMAIN_NOT_VERIFIED', 'The shared sandbox domain sends only to the account owner: send broadcasts from a verified domain of your own');
  }
  const [domain] = await tx
    .select({ status: domains.status })
    .from(domains)
    .where(and(eq(domains.organizationId, row.organizationId), eq(domains.name, senderDomain)));
  if (domain?.status !== 'verified') return new AppError('DOMAIN_NOT_VERIFIED', `${senderDomain} is not a verified domain of this account; register and verify it first`);
  if (row.templateId) {
    const [template] = await tx.select({ id: templates.id, publishedAt: templates.publishedAt }).from(templates).where(eq(templates.id, row.templateId));
    if (!template) return validationError('template_id: the template was deleted; choose another one or write the content');
    // What a broadcast copies in is what the template publishes: one with drafts never published has nothing to send.
    if (template.publishedAt === null) return validationError('template_id: the template has never been published; publish it (POST /templates/{id}/publish) first');
  } else if (row.templateId === null && row.html === null && row.text === null) {
    return validationError('html: the broadcast has no content');
  }
  return null;
}

/** The content sending starts with: a template's (as published; a draft waiting is not) copied in, so edits to the template meanwhile change nothing. */
async function frozenContent(tx: Db, row: BroadcastRow): Promise<Pick<BroadcastRow, 'subject' | 'html' | 'text'>> {
  if (!row.templateId) return { subject: row.subject, html: row.html, text: row.text };
  const [template] = await tx.select().from(templates).where(eq(templates.id, row.templateId));
  if (!template) throw validationError('template_id: the template was deleted');
  return { subject: row.subject ?? template.subject, html: template.html, text: template.text };
}

/**
 * Sending starts: the audience as it is now (its newest contact, so later ones are left out, and
 * how many members would get it: subscribed, and in the topic when it has one) and the content are fixed on the row, and the fan-out is due at once.
 * In the caller's transaction, with the broadcast's row locked and its refusals checked.
 */
export async function startSending(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, row: BroadcastRow): Promise<BroadcastRow> {
  // A rule segment's members are who its rules match now.
  const joined = await evaluateIfRuleSegment(tx, row.audienceId!, deps.clock.now());
  await raiseRuleSegmentJoins(tx, deps, row.organizationId, row.audienceId!, joined);
  // Postgres has no max() of uuid: the newest contact is the first by id descending.
  const [newest] = await tx
    .select({ id: audienceMemberships.contactId })
    .from(audienceMemberships)
    .where(eq(audienceMemberships.audienceId, row.audienceId!))
    .orderBy(desc(audienceMemberships.contactId))
    .limit(1);
  // The condition in the WHERE, so a topic's choices are one semi-join (anti-join), not a lookup per member.
  const [snapshot] = await tx
    .select({ recipients: sql<number>`count(*)::int` })
    .from(audienceMemberships)
    .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
    .where(and(eq(audienceMemberships.audienceId, row.audienceId!), receivesBroadcasts(await broadcastTopic(tx, row.topicId)), consentRequirement(row.requireConfirmedConsent)));
  const now = deps.clock.now();
  const [started] = await tx
    .update(broadcasts)
    .set({
      ...(await frozenContent(tx, row)),
      status: 'sending',
      heldReason: null,
      startedAt: now,
      nextAttemptAt: now,
      lastContactId: newest?.id ?? null,
      recipients: snapshot?.recipients ?? 0,
      cursor: null,
      updatedAt: now,
    })
    .where(eq(broadcasts.id, row.id))
    .returning();
  await recordBroadcastEvent(tx, deps, started!, 'broadcast.sending');
  return started!;
}
