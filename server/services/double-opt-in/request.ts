import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audiences, contactConfirmations, contacts, organizations, topics, type ConfirmationTopicChoice } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, conflict, notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { declareConsentSource, type ConsentSource } from '../consent/source';
import { admit, wakeAdmitted, type Admitted } from '../emails/accept/admit';
import { AddressError, parseMailbox } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { DAY_MS } from '../shared/time';
import { confirmationEmail, type ConfirmationSender } from './content';
import { CONFIRMATION_LINK_DAYS, CONFIRMATION_RESEND_LIMITS } from './rules';
import { confirmationUrl, sealConfirmationToken } from './tokens';

export type { ConfirmationSender } from './content';

/** What a double opt-in is asked with (POST /contacts `double_opt_in`, a hosted form, a re-send). */
export interface ConfirmationRequest {
  /** Whose mail the confirmation is: the organization's, live (a form builds its organization's principal). */
  principal: Principal;
  /** The organization's contact; the caller's transaction may have just made it, pending. */
  contactId: string;
  sender: ConfirmationSender;
  /** What confirming does beyond subscribing: the lists it joins and the topic choices it makes, checked now. */
  join?: { audienceIds?: string[]; topics?: ConfirmationTopicChoice[] };
  /**
   * What asked for it, declared for the ledger's `pending` entry: the key or member
   * (`sourceOfPrincipal`), or a form (`{ via: 'form', formId, formVersion, clientAddress, userAgent }`).
   */
  source: ConsentSource;
}

export interface RequestedConfirmation {
  /** `sent`: the contact is pending and the email stored; `already_confirmed`: subscribed by a confirmation already, nothing mailed. */
  status: 'sent' | 'already_confirmed';
  confirmationId: string | null;
  emailId: string | null;
  expiresAt: Date | null;
  /** The wake-ups of the stored email, for the caller to make once its transaction has committed (`wakeConfirmation`). */
  wake: Admitted['wake'];
}

const NOTHING_TO_WAKE: Admitted['wake'] = { emailIds: [], deliveriesQueued: false };

/**
 * Asks a contact to confirm, in the caller's transaction (the one door for POST /contacts, the
 * re-send route and hosted forms): the contact becomes pending (not subscribed; the ledger's
 * `pending` entry carries `source`), a confirmation row records what confirming will do, and the
 * email with its signed link (valid CONFIRMATION_LINK_DAYS) goes in through the admit door
 * (via `confirmation`: the sender's domain, the account, suppressions and the sending limits apply,
 * and a refusal is thrown, so the caller's transaction writes nothing). A contact already pending
 * stays pending since its first request. Refused with RATE_LIMITED (Retry-After) past
 * CONFIRMATION_RESEND_LIMITS. A contact subscribed through a confirmation already is left as it is.
 */
export async function requestConfirmation(tx: Db, deps: Deps, request: ConfirmationRequest): Promise<RequestedConfirmation> {
  const { principal } = request;
  const organizationId = principal.organizationId;
  const [contact] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, request.contactId), eq(contacts.organizationId, organizationId)))
    .for('update');
  if (!contact) throw notFound('Contact');
  if (contact.pendingSince === null && !contact.unsubscribed && contact.confirmedAt !== null) {
    return { status: 'already_confirmed', confirmationId: null, emailId: null, expiresAt: null, wake: NOTHING_TO_WAKE };
  }
  checkSender(request.sender);
  const now = deps.clock.now();
  await refuseTooSoon(tx, contact.id, now);
  const join = await checkedJoin(tx, organizationId, request.join ?? {});

  await declareConsentSource(tx, request.source);
  if (contact.pendingSince === null) {
    await tx.update(contacts).set({ pendingSince: now, unsubscribed: true, updatedAt: now }).where(eq(contacts.id, contact.id));
  }

  const confirmationId = newId();
  const expiresAt = new Date(now.getTime() + CONFIRMATION_LINK_DAYS * DAY_MS);
  const [organization] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  const email = await confirmationEmail(tx, organizationId, request.sender, contact.email, {
    confirmation_url: confirmationUrl(deps.config.appUrl, sealConfirmationToken(deps.encryptionKey, { confirmationId, expiresAt })),
    email: contact.email,
    name: contact.name,
    organization: organization?.name ?? '',
    expires_in_days: CONFIRMATION_LINK_DAYS,
  });
  const { outcomes, wake } = await admit(deps, { via: 'confirmation', principal, kind: 'transactional', items: [{ request: email }], tx });
  const outcome = outcomes[0];
  if (!outcome) throw new Error('a confirmation ended without an outcome');
  if ('error' in outcome) throw outcome.error;

  await tx.insert(contactConfirmations).values({
    id: confirmationId,
    organizationId,
    contactId: contact.id,
    emailId: outcome.id,
    fromAddress: request.sender.from,
    templateId: request.sender.templateId ?? null,
    audienceIds: join.audienceIds,
    topics: join.topics,
    formId: request.source.formId ?? null,
    formVersion: request.source.formVersion ?? null,
    createdAt: now,
    expiresAt,
  });
  return { status: 'sent', confirmationId, emailId: outcome.id, expiresAt, wake };
}

/** The email of a confirmation to its delivery, once the transaction that stored it has committed. */
export function wakeConfirmation(deps: Pick<Deps, 'jobs'>, requested: RequestedConfirmation): void {
  wakeAdmitted(deps, requested.wake);
}

function checkSender(sender: ConfirmationSender): void {
  if (!sender.from) throw validationError('confirmation.from: double opt-in mails a confirmation; give a sender on one of your verified domains');
  try {
    parseMailbox(sender.from);
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`confirmation.from: ${error.message}`);
    throw error;
  }
}

/** RATE_LIMITED with Retry-After when the confirmations already mailed to the contact fill a window of CONFIRMATION_RESEND_LIMITS. */
async function refuseTooSoon(tx: Db, contactId: string, now: Date): Promise<void> {
  const longest = Math.max(...CONFIRMATION_RESEND_LIMITS.map((limit) => limit.windowMs));
  const sent = await tx
    .select({ at: contactConfirmations.createdAt })
    .from(contactConfirmations)
    .where(and(eq(contactConfirmations.contactId, contactId), gt(contactConfirmations.createdAt, new Date(now.getTime() - longest))));
  for (const limit of CONFIRMATION_RESEND_LIMITS) {
    const inWindow = sent.map((row) => row.at.getTime()).filter((at) => at > now.getTime() - limit.windowMs).sort((a, b) => a - b);
    if (inWindow.length < limit.max) continue;
    const seconds = Math.max(1, Math.ceil((inWindow[0]! + limit.windowMs - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', `A confirmation was mailed to this contact ${limit.words}; ask again in ${seconds} s`, { 'Retry-After': String(seconds) });
  }
}

/** The lists and topics a confirmation will apply, each the organization's (404), lists only (409 for a rule segment), none twice (400). */
async function checkedJoin(tx: Db, organizationId: string, join: NonNullable<ConfirmationRequest['join']>): Promise<{ audienceIds: string[]; topics: ConfirmationTopicChoice[] }> {
  const audienceIds = [...new Set((join.audienceIds ?? []).map((id) => id.toLowerCase()))];
  if (audienceIds.length > 0) {
    const found = await tx
      .select({ id: audiences.id, name: audiences.name, rules: audiences.rules })
      .from(audiences)
      .where(and(eq(audiences.organizationId, organizationId), inArray(audiences.id, audienceIds)));
    const missing = audienceIds.find((id) => !found.some((row) => row.id === id));
    if (missing) throw notFound(`Segment ${missing}`);
    const ruled = found.find((row) => row.rules);
    if (ruled) throw conflict(`The segment "${ruled.name}" takes its members from its rules: a confirmation cannot join it`);
  }
  const choices = (join.topics ?? []).map((choice) => ({ id: choice.id.toLowerCase(), subscription: choice.subscription }));
  const seen = new Set<string>();
  for (const [index, choice] of choices.entries()) {
    if (seen.has(choice.id)) throw validationError(`topics[${index}].id: the topic ${choice.id} is given twice`);
    seen.add(choice.id);
  }
  if (choices.length > 0) {
    const found = await tx
      .select({ id: topics.id })
      .from(topics)
      .where(and(eq(topics.organizationId, organizationId), inArray(topics.id, [...seen])));
    const missing = [...seen].find((id) => !found.some((row) => row.id === id));
    if (missing) throw notFound(`Topic ${missing}`);
  }
  return { audienceIds, topics: choices };
}

