import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { audienceMemberships, audiences, type ContactPropertyValue } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { renderForContacts } from '../broadcasts/content';
import { propertyFallbacks } from '../contact-properties/fallbacks';
import { admit, wakeAdmitted, type AdmitItem } from '../emails/accept/admit';
import { loadSendContext } from '../emails/accept/context';
import { draftListCopy, type ListCopy } from '../emails/accept/list-copy';
import { listMailRefusal } from '../emails/accept/list-mail-refusal';
import { parseMailbox } from '../shared/addresses';
import { organizationPrincipal } from '../shared/principal';
import { templatesOf } from '../templates/lookup';
import type { StoredTemplate } from '../templates/cache';
import { sealUnsubscribeToken, unsubscribeKeyFrom, unsubscribeLinks } from '../unsubscribe/tokens';
import { dueForReengagement } from './rule';

/** Members warned per transaction: one render task, one store statement. */
export const REENGAGEMENT_BATCH = 500;

/** The tag every re-engagement email carries, so the email list can show them (and a webhook consumer tell them apart). */
export const REENGAGEMENT_TAG = { name: 'sunset', value: 're-engagement' };

/** An audience's re-engagement setting, as the run reads it. */
export interface ReengagementSetting {
  audienceId: string;
  organizationId: string;
  months: number;
  /** Null when the template was deleted since it was chosen: the run sends nothing and says why. */
  templateId: string | null;
  from: string;
}

export interface ReengagementResult {
  /** Members warned: their email stored (or, for a suppressed address, recorded as warned without one). */
  warned: number;
  /** Why the run stopped before warning every member due, as the audience now shows it; null when it did not. */
  error: string | null;
}

type Member = { contactId: string; membershipId: string; email: string; name: string | null; firstName: string | null; lastName: string | null; properties: Record<string, ContactPropertyValue> };

/**
 * Sends the audience's re-engagement email to every receiving member now due for sunset and not
 * warned yet (./rule.ts), in batches: each batch is read and rendered outside any transaction,
 * then, in one transaction, the members still due and unwarned are locked (skipping rows another
 * run holds), their copies go in through the admit door as list mail (via `reengagement`: the
 * account, the sender's domain, suppressions, the review allowance and the daily and monthly
 * limits, in order) and exactly the members whose copy was stored are marked warned
 * (`reengaged_at`), so no member is mailed twice and none is sunset unwarned. A refusal (the plan,
 * the account, the domain, the template, a limit) stops the run for this audience and is recorded
 * on it; members not reached wait, unwarned and not sunset, for the next run.
 */
export async function sendReengagement(deps: Deps, setting: ReengagementSetting): Promise<ReengagementResult> {
  let warned = 0;
  let error: string | null = null;
  try {
    const template = await publishedTemplate(deps.db, setting);
    for (;;) {
      const batch = await warnBatch(deps, setting, template);
      warned += batch.warned;
      if (batch.refusal) throw batch.refusal;
      if (batch.warned === 0 || batch.read < REENGAGEMENT_BATCH) break;
    }
  } catch (refusal) {
    if (!(refusal instanceof AppError)) throw refusal;
    error = refusal.message;
  }
  await deps.db.update(audiences).set({ sunsetReengagementError: error }).where(eq(audiences.id, setting.audienceId));
  return { warned, error };
}

async function publishedTemplate(db: Db, setting: ReengagementSetting): Promise<StoredTemplate> {
  if (!setting.templateId) throw new AppError('VALIDATION_ERROR', 'The re-engagement template was deleted: choose another one, or turn the re-engagement email off');
  const { found, unpublished } = await templatesOf(db, setting.organizationId, [setting.templateId]);
  if (unpublished.has(setting.templateId)) throw new AppError('VALIDATION_ERROR', 'The re-engagement template has no published version: publish it');
  const template = found.get(setting.templateId);
  if (!template) throw new AppError('VALIDATION_ERROR', 'The re-engagement template was deleted: choose another one, or turn the re-engagement email off');
  return template;
}

const memberColumns = sql`m.contact_id as "contactId", m.id as "membershipId", c.email, c.name, c.first_name as "firstName", c.last_name as "lastName", c.properties`;

async function warnBatch(deps: Deps, setting: ReengagementSetting, template: StoredTemplate): Promise<{ read: number; warned: number; refusal: AppError | null }> {
  const due = dueForReengagement(deps.clock.now(), setting.months);
  const read = await queryRows<Member>(
    deps.db,
    sql`select ${memberColumns} from audience_memberships m join contacts c on c.id = m.contact_id
      where m.audience_id = ${setting.audienceId} and ${due} order by m.contact_id limit ${REENGAGEMENT_BATCH}`,
  );
  if (read.length === 0) return { read: 0, warned: 0, refusal: null };
  const copies = await renderCopies(deps, setting, template, read);

  const result = await deps.db.transaction(async (tx) => {
    const refusal = await listMailRefusal(tx, deps, setting.organizationId, (plan) => `The re-engagement email is list mail, which needs a paid plan: move up from ${plan}`);
    if (refusal) return { warned: 0, refusal, wake: null };
    const still = await queryRows<{ contactId: string }>(
      tx,
      sql`select m.contact_id as "contactId" from audience_memberships m join contacts c on c.id = m.contact_id
        where m.audience_id = ${setting.audienceId} and m.contact_id in (${sql.join(read.map((member) => sql`${member.contactId}::uuid`), sql`, `)}) and ${due}
        for update of m skip locked`,
    );
    const locked = new Set(still.map((row) => row.contactId));
    const members = read.filter((member) => locked.has(member.contactId));
    if (members.length === 0) return { warned: 0, refusal: null, wake: null };

    const now = deps.clock.now();
    const sender = parseMailbox(setting.from);
    const context = await loadSendContext({ db: tx, encryptionKey: deps.encryptionKey }, setting.organizationId, [sender.domain], members.map((member) => member.email));
    const domain = context.domains.get(sender.domain);
    if (domain?.status !== 'verified') return { warned: 0, refusal: new AppError('DOMAIN_NOT_VERIFIED', `${sender.domain} is not a verified domain of this account: the re-engagement email is sent from it`), wake: null };
    const principal = organizationPrincipal(setting.organizationId, context.account?.plan ?? 'free');

    // A suppressed address is warned without a message (nothing may reach it), so it is sunset in its turn.
    const items: AdmitItem[] = [];
    const itemOf = new Map<string, number>();
    for (const member of members) {
      if (context.suppressed.has(member.email)) continue;
      const made = draftListCopy(copies.get(member.contactId)!, { principal, sender, domain, now }, 'the re-engagement email could not be rendered for this contact');
      Object.assign(('sent' in made ? made.sent : made.failed).row, { contactId: member.contactId });
      itemOf.set(member.contactId, items.length);
      items.push('sent' in made ? { drafted: { draft: made.sent, recipients: 1, listShaped: true } } : { drafted: { draft: made.failed, recipients: 1, listShaped: true }, outsideLimits: true });
    }
    if (items.length === 0) {
      await markWarned(tx, setting.audienceId, members.map((member) => member.contactId), now);
      return { warned: members.length, refusal: null, wake: null };
    }
    const { outcomes, wake } = await admit(deps, { via: 'reengagement', principal, kind: 'broadcast', items, tx, context, inOrder: true });
    // The limits refuse in order: the members before the first refusal are warned, none after it.
    const firstRefused = outcomes.findIndex((outcome) => outcome === null || 'error' in outcome);
    const refused = firstRefused === -1 ? null : outcomes[firstRefused];
    const limitRefusal: unknown = refused && 'error' in refused ? refused.error : null;
    if (limitRefusal && !(limitRefusal instanceof AppError)) throw limitRefusal;
    const warnedIds = members
      .filter((member) => {
        const index = itemOf.get(member.contactId);
        return index === undefined ? firstRefused === -1 : firstRefused === -1 || index < firstRefused;
      })
      .map((member) => member.contactId);
    await markWarned(tx, setting.audienceId, warnedIds, now);
    return { warned: warnedIds.length, refusal: limitRefusal as AppError | null, wake };
  });
  if (result.wake) wakeAdmitted(deps, result.wake);
  return { read: read.length, warned: result.warned, refusal: result.refusal };
}

async function markWarned(tx: Db, audienceId: string, contactIds: string[], now: Date): Promise<void> {
  if (contactIds.length === 0) return;
  await tx
    .update(audienceMemberships)
    .set({ reengagedAt: now })
    .where(and(eq(audienceMemberships.audienceId, audienceId), inArray(audienceMemberships.contactId, contactIds)));
}

/** Each member's copy, rendered in the pool with the variables a broadcast's copy has (its unsubscribe link leaves this audience). */
async function renderCopies(deps: Deps, setting: ReengagementSetting, template: StoredTemplate, members: Member[]): Promise<Map<string, ListCopy>> {
  const key = unsubscribeKeyFrom(deps.encryptionKey);
  const fallbacks = await propertyFallbacks(deps.db, setting.organizationId);
  const prepared = members.map((member) => {
    const emailId = newId();
    return { member, emailId, links: unsubscribeLinks(deps.config, sealUnsubscribeToken(key, { membershipId: member.membershipId, emailId })) };
  });
  const rendered = await renderForContacts(
    deps,
    { id: template.id, updatedAt: template.updatedAt },
    { subject: template.subject ?? '', html: template.html, text: template.text },
    prepared.map(({ member, links }) => ({ email: member.email, name: member.name, firstName: member.firstName, lastName: member.lastName, properties: { ...fallbacks, ...member.properties }, unsubscribeUrl: links.url })),
  );
  return new Map(
    prepared.map(({ member, emailId, links }, index) => [
      member.contactId,
      { emailId, links, rendered: rendered[index]!, from: setting.from, replyTo: template.replyTo ?? [], to: member.email, subjectAsWritten: template.subject ?? '', tags: [REENGAGEMENT_TAG] },
    ]),
  );
}
