import { and, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { automationEmails, contacts } from '@/db/schema';
import type { Deps } from '../../../deps';
import { AppError } from '../../../errors';
import { newId } from '../../../ids';
import { renderForContacts } from '../../broadcasts/content';
import { inTopic } from '../../contacts/fields';
import { propertyFallbacks } from '../../contact-properties/fallbacks';
import { admit, type AdmitItem } from '../../emails/accept/admit';
import { loadSendContext } from '../../emails/accept/context';
import { draftListCopy } from '../../emails/accept/list-copy';
import { listMailRefusal } from '../../emails/accept/list-mail-refusal';
import { parseMailbox } from '../../shared/addresses';
import { organizationPrincipal } from '../../shared/principal';
import { templatesOf } from '../../templates/lookup';
import { broadcastTopic } from '../../topics/recipients';
import { sealUnsubscribeToken, unsubscribeKeyFrom, unsubscribeLinks } from '../../unsubscribe/tokens';
import type { SendEmailConfig } from '../step-configs';
import { valueOf, type RunFacts } from './evaluate';

/** The limits that refuse for a while, not for good: the step is tried again later. */
const REFUSED_FOR_A_WHILE = new Set(['DAILY_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED', 'RATE_LIMITED', 'LIST_SEND_HELD']);

/** What a send step did: stored an email; skipped the contact (out of the topic, sunset); refused for now (try later) or for good. */
export type SendOutcome =
  | { sent: { emailId: string; wake: { emailIds: string[]; deliveriesQueued: boolean } } }
  | { skipped: string }
  | { retry: AppError }
  | { failed: AppError };

export interface SendingRun {
  id: string;
  organizationId: string;
  automationId: string;
  stepKey: string;
  test: boolean;
}

/** A step's template variables: literals as written, `{ var: "contact.x" | "event.x" }` read from the run. */
export function resolveVariables(variables: Record<string, unknown> | undefined, facts: RunFacts): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(variables ?? {})) {
    resolved[name] = value !== null && typeof value === 'object' && 'var' in value ? (valueOf(facts, String((value as { var: string }).var)) ?? '') : value;
  }
  return resolved;
}

/** Of these contacts, those sunset in every audience they are in (and in one at least): list mail skips them. */
async function sunsetEverywhere(tx: Db, contactIds: string[]): Promise<Set<string>> {
  const rows = await queryRows<{ contact_id: string; members: number; sunset: number }>(
    tx,
    sql`select contact_id::text, count(*)::int as members, count(sunset_at)::int as sunset from audience_memberships
      where contact_id in (${sql.join(contactIds.map((id) => sql`${id}::uuid`), sql`, `)}) group by contact_id`,
  );
  return new Set(rows.filter((row) => row.members > 0 && row.members === row.sunset).map((row) => row.contact_id));
}

/** Of these contacts, those outside the step's topic (none without one). */
async function outOfTopic(tx: Db, contactIds: string[], topicId: string | undefined): Promise<Set<string>> {
  if (!topicId) return new Set();
  const topic = await broadcastTopic(tx, topicId);
  const rows = await tx.select({ id: contacts.id }).from(contacts).where(and(inArray(contacts.id, contactIds), inTopic(topic!)));
  const inside = new Set(rows.map((row) => row.id));
  return new Set(contactIds.filter((id) => !inside.has(id)));
}

/** A run at a `send_email` step: which run, and what its variables read. */
export interface SendingStep {
  run: SendingRun;
  facts: RunFacts;
}

const everyOne = <T>(steps: SendingStep[], outcome: T): T[] => steps.map(() => outcome);

/** One run's `send_email` step (the single path, step.ts): the crowd's, for a crowd of one. */
export async function sendStepEmail(tx: Db, deps: Deps, run: SendingRun, config: SendEmailConfig, facts: RunFacts): Promise<SendOutcome> {
  const [outcome] = await sendStepEmails(tx, deps, [{ run, facts }], config);
  return outcome!;
}

/**
 * `send_email` steps of runs at the same step of one automation's version (one organization, one
 * mode), in the runs' transaction: list mail through the admit door (via `automation`, counted
 * as broadcast mail: the review allowance, the daily and monthly limits, taken in order), with
 * one-click List-Unsubscribe naming the contact and the email, each recorded in
 * `automation_emails` beside it. The plan and account are read again (a downgrade disables
 * nothing, so a Free organization's step fails here); a contact out of the step's topic, or
 * sunset, is skipped. Answers an outcome per step, in order.
 */
export async function sendStepEmails(tx: Db, deps: Deps, steps: SendingStep[], config: SendEmailConfig): Promise<SendOutcome[]> {
  if (steps.length === 0) return [];
  const { organizationId, automationId, stepKey, test } = steps[0]!.run;
  const refusal = await listMailRefusal(tx, deps, organizationId, (plan) => `An automation's email is list mail, which needs a paid plan: move up from ${plan}`);
  if (refusal) return everyOne(steps, REFUSED_FOR_A_WHILE.has(refusal.appCode) ? { retry: refusal } : { failed: refusal });

  const contactIds = steps.map((step) => step.facts.contact.id);
  const [outside, sunset] = [await outOfTopic(tx, contactIds, config.topic_id), await sunsetEverywhere(tx, contactIds)];
  const skipped = (contactId: string): string | null =>
    outside.has(contactId) ? 'The contact is not in the step\'s topic' : sunset.has(contactId) ? 'The contact is sunset (no human open or click for the audience\'s sunset period)' : null;
  const sending = steps.filter((step) => skipped(step.facts.contact.id) === null);

  const { found, unpublished } = await templatesOf(tx, organizationId, [config.template.id]);
  const template = found.get(config.template.id);
  const sendingRefusal = (): AppError | null => {
    if (unpublished.has(config.template.id)) return new AppError('VALIDATION_ERROR', 'The step\'s template has no published version: publish it');
    if (!template) return new AppError('VALIDATION_ERROR', 'The step\'s template was deleted: choose another one in a new version of the automation');
    if (!(config.from ?? template.from)) return new AppError('VALIDATION_ERROR', 'Neither the step nor its template gives a sender (from)');
    return null;
  };
  const outcomes = new Map<SendingStep, SendOutcome>();
  for (const step of steps) {
    const reason = skipped(step.facts.contact.id);
    if (reason) outcomes.set(step, { skipped: reason });
  }
  const answer = () => steps.map((step) => outcomes.get(step)!);
  if (sending.length === 0) return answer();
  const refused = sendingRefusal();
  if (refused) {
    for (const step of sending) outcomes.set(step, { failed: refused });
    return answer();
  }
  const from = (config.from ?? template!.from)!;
  const sender = parseMailbox(from);
  const context = await loadSendContext({ db: tx, encryptionKey: deps.encryptionKey }, organizationId, [sender.domain], sending.map((step) => step.facts.contact.email));
  const domain = context.domains.get(sender.domain);
  if (domain?.status !== 'verified') {
    for (const step of sending) outcomes.set(step, { failed: new AppError('DOMAIN_NOT_VERIFIED', `${sender.domain} is not a verified domain of this account: the step sends from it`) });
    return answer();
  }

  const fallbacks = await propertyFallbacks(tx, organizationId);
  const subject = config.subject ?? template!.subject ?? '';
  const unsubscribeKey = unsubscribeKeyFrom(deps.encryptionKey);
  const copies = sending.map((step) => {
    const emailId = newId();
    return { step, emailId, links: unsubscribeLinks(deps.config, sealUnsubscribeToken(unsubscribeKey, { membershipId: step.facts.contact.id, emailId })) };
  });
  const rendered = await renderForContacts(
    deps,
    config.subject === undefined ? { id: template!.id, updatedAt: template!.updatedAt } : null,
    { subject, html: template!.html, text: template!.text },
    copies.map(({ step: { facts }, links }) => ({
      email: facts.contact.email,
      name: [facts.contact.firstName, facts.contact.lastName].filter(Boolean).join(' ') || null,
      firstName: facts.contact.firstName,
      lastName: facts.contact.lastName,
      properties: { ...fallbacks, ...facts.contact.properties },
      unsubscribeUrl: links.url,
      variables: { event: facts.payload, ...resolveVariables(config.template.variables, facts) },
    })),
  );
  const replyTo = config.reply_to === undefined ? (template!.replyTo ?? []) : [config.reply_to].flat();
  const principal = { ...organizationPrincipal(organizationId, context.account?.plan ?? 'free'), mode: test ? ('test' as const) : ('live' as const) };
  const now = deps.clock.now();
  const items: AdmitItem[] = copies.map(({ step, emailId, links }, k) => {
    const made = draftListCopy(
      { emailId, links, rendered: rendered[k]!, from, replyTo, to: step.facts.contact.email, subjectAsWritten: subject, tags: [{ name: 'automation', value: automationId }] },
      { principal, sender, domain, now },
      'the automation\'s email could not be rendered for this contact',
    );
    Object.assign(('sent' in made ? made.sent : made.failed).row, { contactId: step.facts.contact.id });
    return 'sent' in made ? { drafted: { draft: made.sent, recipients: 1, listShaped: true } } : { drafted: { draft: made.failed, recipients: 1, listShaped: true }, outsideLimits: true };
  });
  const { outcomes: admitted, wake } = await admit(deps, { via: 'automation', principal, kind: 'broadcast', items, tx, context, inOrder: true });
  const records: Array<typeof automationEmails.$inferInsert> = [];
  copies.forEach(({ step }, k) => {
    const outcome = admitted[k];
    if (!outcome || 'error' in outcome) {
      const error = outcome?.error;
      if (!(error instanceof AppError)) throw error ?? new Error('the admit door answered nothing for the automation\'s email');
      outcomes.set(step, REFUSED_FOR_A_WHILE.has(error.appCode) ? { retry: error } : { failed: error });
      return;
    }
    // The wake-up goes with the crowd's first email: it names them all.
    outcomes.set(step, { sent: { emailId: outcome.id, wake: records.length === 0 ? wake : { emailIds: [], deliveriesQueued: false } } });
    records.push({ emailId: outcome.id, organizationId, automationId, runId: step.run.id, stepKey, contactId: step.facts.contact.id, topicId: config.topic_id ?? null, test, createdAt: now });
  });
  if (records.length > 0) await tx.insert(automationEmails).values(records);
  return answer();
}
