import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { broadcasts, contacts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { accountRefusal, type SendPermit } from '../emails/accept/checks';
import { loadSendContext, type SendContext } from '../emails/accept/context';
import { draftEmail } from '../emails/accept/draft';
import type { EmailInput } from '../emails/accept/input';
import { storeEmails, type EmailDraft } from '../emails/accept/store';
import { storeWithinLimits, type Candidate } from '../emails/accept/within-limits';
import { startOfNextUtcDay, startOfNextUtcMonth } from '../plans/calendar';
import { parseMailbox, type Mailbox } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { sealUnsubscribeToken, unsubscribeKeyFrom, unsubscribeLinks } from '../unsubscribe/tokens';
import { renderForContact } from './content';
import type { RenderedTemplate } from '../templates/render';
import { recordBroadcastEvent } from './events';
import { holdBroadcast } from './holds';
import type { HoldReason } from './statuses';
import type { BroadcastRow } from './view';

/** Contacts per chunk: one transaction, one store statement. */
export const CHUNK_CONTACTS = 500;

/** What one chunk did: `more` when contacts are left. */
export type ChunkOutcome = 'more' | 'sent' | 'held' | 'failed' | 'stopped';

export interface ChunkResult {
  outcome: ChunkOutcome;
  /** Emails stored, for the pipeline's wake-up. */
  emailIds: string[];
  deliveriesQueued: boolean;
  systemEmailId: string | null;
}

/** Who a broadcast's messages are sent as: the organization itself, live. */
const broadcastPrincipal = (organizationId: string, plan: string): Principal => ({
  organizationId,
  permission: 'full_access',
  mode: 'live',
  keyId: null,
  domainId: null,
  userId: null,
  plan,
  rateLimitOverride: null,
});

type ContactRow = { id: string; email: string; name: string | null; subscribed: boolean; updatedAt: Date };

/** Why the broadcast cannot go on (checked at every chunk: the account or domain may have changed since it started). */
function failureOf(context: SendContext, sender: Mailbox): string | null {
  const refusal = context.organization ? accountRefusal(context.organization) : null;
  if (refusal) return refusal.message;
  if (context.domains.get(sender.domain)?.status !== 'verified') return `${sender.domain} is no longer a verified domain of this account`;
  return null;
}

/** The headers of one-click unsubscribe (RFC 2369, RFC 8058) and bulk mail; the DKIM signature covers them. */
function listHeaders(links: { url: string; mailto: string }): Record<string, string> {
  return {
    'List-Unsubscribe': `<${links.url}>, <mailto:${links.mailto}>`,
    // RFC 8058 asks for an https URL; on a plain-http APP_URL (development) the one-click POST is not offered.
    ...(links.url.startsWith('https:') ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
    Precedence: 'bulk',
  };
}

const HOLDS: Record<string, HoldReason> = { LIST_SEND_HELD: 'review', DAILY_LIMIT_EXCEEDED: 'daily_limit', MONTHLY_LIMIT_EXCEEDED: 'monthly_limit' };

function holdFor(refusal: AppError, now: Date): { reason: HoldReason; resumesAt: Date | null } {
  const reason = HOLDS[refusal.appCode] ?? 'review';
  return { reason, resumesAt: reason === 'daily_limit' ? startOfNextUtcDay(now) : reason === 'monthly_limit' ? startOfNextUtcMonth(now) : null };
}

/**
 * The next chunk of a sending broadcast, in one transaction under the broadcast's row lock: the
 * contacts after the cursor, each either skipped (unsubscribed since the start), suppressed, or
 * rendered and stored as an email within the sending limits; then the cursor and the counts move.
 * When the limits refuse a contact, only the contacts before it count as handled and the
 * broadcast is held: the next chunk after the hold starts exactly at that contact.
 */
export async function fanOutChunk(deps: Deps, broadcastId: string): Promise<ChunkResult> {
  return deps.db.transaction(async (tx) => {
    const nothing = (outcome: ChunkOutcome): ChunkResult => ({ outcome, emailIds: [], deliveriesQueued: false, systemEmailId: null });
    const [row] = await tx.select().from(broadcasts).where(eq(broadcasts.id, broadcastId)).for('update');
    // Cancelled, or taken over by another worker since this one claimed it: this chunk is not ours.
    if (!row || row.status !== 'sending' || row.claimedBy !== deps.claims.id) return nothing('stopped');
    const chunk = await contactsAfterCursor(tx, row);
    const now = deps.clock.now();
    const sender = parseMailbox(row.from);
    const context = await loadSendContext({ db: tx, encryptionKey: deps.encryptionKey }, row.organizationId, [sender.domain], chunk.map((contact) => contact.email));
    const failure = failureOf(context, sender);
    if (failure) {
      await failBroadcast(tx, deps, row, failure);
      return nothing('failed');
    }
    const domain = context.domains.get(sender.domain)!;
    const principal = broadcastPrincipal(row.organizationId, context.account?.plan ?? 'free');
    const copy = copyMaker(deps, row, { principal, sender, domain, now });

    // Each contact in order: the candidates the limits are asked about, and where each contact stands.
    const candidates: Candidate[] = [];
    const fates: Array<'absent' | 'skipped' | 'suppressed' | number> = [];
    for (const contact of chunk) {
      // Unsubscribed before the start: never a recipient, not counted; since the start: skipped.
      if (!contact.subscribed) fates.push(row.startedAt && contact.updatedAt > row.startedAt ? 'skipped' : 'absent');
      else if (context.suppressed.has(contact.email)) fates.push('suppressed');
      else {
        const draft = copy(contact);
        if (!draft) fates.push('skipped');
        else {
          fates.push(candidates.length);
          candidates.push({ draft, recipients: 1, listShaped: true });
        }
      }
    }

    const { refusals, result } = await storeWithinLimits({ ...deps, db: tx }, principal, context, 'broadcast', candidates, (drafts, reservation) => storeEmails(tx, drafts, reservation));
    // The limits refuse in order: every contact before the first refusal is handled, none after it.
    const stop = fates.findIndex((fate) => typeof fate === 'number' && refusals[fate] !== null);
    const handled = stop === -1 ? fates.length : stop;
    const done = stop === -1 && chunk.length < CHUNK_CONTACTS;
    const handledFates = fates.slice(0, handled);
    const [advanced] = await tx
      .update(broadcasts)
      .set({
        cursor: handled > 0 ? chunk[handled - 1]!.id : row.cursor,
        queued: sql`${broadcasts.queued} + ${result.stored.size}`,
        suppressed: sql`${broadcasts.suppressed} + ${handledFates.filter((fate) => fate === 'suppressed').length}`,
        skipped: sql`${broadcasts.skipped} + ${handledFates.filter((fate) => fate === 'skipped').length}`,
        ...(done ? { status: 'sent' as const, sentAt: now, nextAttemptAt: null } : {}),
      })
      // The row is locked and ours; the cursor check keeps a chunk from ever being stored twice should that change.
      .where(and(eq(broadcasts.id, row.id), row.cursor === null ? sql`${broadcasts.cursor} is null` : eq(broadcasts.cursor, row.cursor)))
      .returning();
    if (!advanced) throw new Error(`broadcast ${row.id}: the cursor moved under a locked chunk`);
    const emailIds = [...result.stored];
    if (done) await recordBroadcastEvent(tx, deps, advanced, 'broadcast.sent');
    if (stop !== -1) {
      const held = await holdBroadcast(tx, deps, advanced, holdFor(refusals[fates[stop] as number]!, now));
      return { outcome: 'held', emailIds, deliveriesQueued: result.deliveriesQueued, systemEmailId: held.systemEmailId };
    }
    return { outcome: done ? 'sent' : 'more', emailIds, deliveriesQueued: result.deliveriesQueued, systemEmailId: null };
  });
}

/**
 * Makes each contact's copy of the broadcast: its own email id, unsubscribe token and links, the
 * content rendered with its values, and the list headers. Null for a copy that cannot be rendered
 * for this contact (its values hit a render limit): that contact is skipped, not the broadcast.
 */
function copyMaker(deps: Pick<Deps, 'config' | 'encryptionKey'>, row: BroadcastRow, on: { principal: Principal; sender: Mailbox; domain: SendPermit['domain']; now: Date }) {
  const key = unsubscribeKeyFrom(deps.encryptionKey);
  const content = { subject: row.subject ?? '', html: row.html, text: row.text };
  const version = { id: row.id, updatedAt: row.startedAt ?? row.updatedAt };
  return (contact: ContactRow): EmailDraft | null => {
    const emailId = newId();
    const links = unsubscribeLinks(deps.config, sealUnsubscribeToken(key, { contactId: contact.id, emailId }));
    let rendered: RenderedTemplate;
    try {
      rendered = renderForContact(version, content, { email: contact.email, name: contact.name, unsubscribeUrl: links.url });
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
    const input: EmailInput = {
      from: row.from,
      to: [contact.email],
      cc: [],
      bcc: [],
      replyTo: row.replyTo,
      subject: rendered.subject,
      html: rendered.html ?? undefined,
      text: rendered.text ?? undefined,
      headers: listHeaders(links),
      tags: [],
      tracking: {},
    };
    const permit: SendPermit = { sender: on.sender, domain: on.domain, deliverable: [contact.email], suppressed: [] };
    const draft = draftEmail(on.principal, input, permit, { now: on.now, scheduledAt: null, id: emailId });
    Object.assign(draft.row, { broadcastId: row.id, contactId: contact.id });
    return draft;
  };
}

function contactsAfterCursor(tx: Db, row: BroadcastRow): Promise<ContactRow[]> {
  if (!row.audienceId || !row.lastContactId) return Promise.resolve([]);
  return tx
    .select({ id: contacts.id, email: contacts.email, name: contacts.name, subscribed: contacts.subscribed, updatedAt: contacts.updatedAt })
    .from(contacts)
    .where(and(eq(contacts.audienceId, row.audienceId), row.cursor ? gt(contacts.id, row.cursor) : undefined, lte(contacts.id, row.lastContactId)))
    .orderBy(asc(contacts.id))
    .limit(CHUNK_CONTACTS);
}

export async function failBroadcast(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, row: BroadcastRow, reason: string): Promise<void> {
  const [failed] = await tx
    .update(broadcasts)
    .set({ status: 'failed', failedReason: reason, nextAttemptAt: null, updatedAt: deps.clock.now() })
    .where(eq(broadcasts.id, row.id))
    .returning();
  await recordBroadcastEvent(tx, deps, failed!, 'broadcast.failed');
}
