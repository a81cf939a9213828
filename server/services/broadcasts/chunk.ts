import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { audienceMemberships, broadcasts, contacts, contactTopics, type ContactPropertyValue } from '@/db/schema';
import { receivesBroadcasts, receivesBroadcastsJoined, type BroadcastTopic } from '../contacts/fields';
import { confirmedConsent } from '../consent/confirmed';
import { propertyFallbacks } from '../contact-properties/fallbacks';
import { broadcastTopic } from '../topics/recipients';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { accountRefusal, type SendPermit } from '../emails/accept/checks';
import { loadSendContext, type SendContext } from '../emails/accept/context';
import { draftListCopy } from '../emails/accept/list-copy';
import { admit, type AdmitItem } from '../emails/accept/admit';
import type { EmailDraft } from '../emails/accept/store';
import { startOfNextUtcDay, startOfNextUtcMonth } from '../plans/calendar';
import { parseMailbox, type Mailbox } from '../shared/addresses';
import { organizationPrincipal, type Principal } from '../shared/principal';
import { sealUnsubscribeToken, unsubscribeKeyFrom, unsubscribeLinks } from '../unsubscribe/tokens';
import { renderForContacts } from './content';
import type { RenderedTemplate } from '../templates/render';
import { createChunkPrefetch } from './chunk-prefetch';
import { recordBroadcastEvent } from './events';
import { holdBroadcast } from './holds';
import type { HoldReason } from '../../vocabulary/broadcast-statuses';
import type { BroadcastRow } from './view';

/** Contacts per chunk: one transaction, one store statement. */
export const CHUNK_CONTACTS = 500;

/** What one chunk did: `more` when contacts are left. */
export type ChunkOutcome = 'more' | 'sent' | 'held' | 'failed' | 'stopped';

export interface ChunkResult {
  outcome: ChunkOutcome;
  /** Emails stored (in the chunk's transaction, so the admit door leaves their wake-up to the caller once committed). */
  emailIds: string[];
  deliveriesQueued: boolean;
  systemEmailId: string | null;
}

/** A member of the audience as the fan-out reads it: `membershipId` is what its unsubscribe token names. */
type ContactRow = {
  id: string;
  membershipId: string;
  email: string;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  properties: Record<string, ContactPropertyValue>;
  subscribed: boolean;
  updatedAt: Date;
};

/** Why the broadcast cannot go on (checked at every chunk: the account or domain may have changed since it started). */
function failureOf(context: SendContext, sender: Mailbox): string | null {
  const refusal = context.organization ? accountRefusal(context.organization) : null;
  if (refusal) return refusal.message;
  if (context.domains.get(sender.domain)?.status !== 'verified') return `${sender.domain} is no longer a verified domain of this account`;
  return null;
}

const HOLDS: Record<string, HoldReason> = { LIST_SEND_HELD: 'review', DAILY_LIMIT_EXCEEDED: 'daily_limit', MONTHLY_LIMIT_EXCEEDED: 'monthly_limit' };

function holdFor(refusal: AppError, now: Date): { reason: HoldReason; resumesAt: Date | null } {
  const reason = HOLDS[refusal.appCode] ?? 'review';
  return { reason, resumesAt: reason === 'daily_limit' ? startOfNextUtcDay(now) : reason === 'monthly_limit' ? startOfNextUtcMonth(now) : null };
}

/**
 * The next chunk of a sending broadcast. First, outside any transaction, the contacts after the
 * cursor are read and their copies rendered in the render pool (one task for the chunk, or a few
 * for large content): a slow render holds a worker thread, never the broadcast's row lock. Then,
 * in one transaction under that lock, provided the cursor has not moved meanwhile, each contact is
 * either skipped (unsubscribed since the start), suppressed, failed (its copy could not be
 * rendered: an email is recorded as failed with the reason), or stored as an email within the
 * sending limits; then the cursor and the counts move. When the limits refuse a contact, only the
 * contacts before it count as handled and the broadcast is held: the next chunk after the hold
 * starts exactly at that contact.
 */
export async function fanOutChunk(deps: Deps, broadcastId: string): Promise<ChunkResult> {
  const nothing = (outcome: ChunkOutcome): ChunkResult => ({ outcome, emailIds: [], deliveriesQueued: false, systemEmailId: null });
  const ours = (row: BroadcastRow | undefined): row is BroadcastRow => !!row && row.status === 'sending' && row.claimedBy === deps.claims.id;
  const [seen] = await deps.db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
  // Cancelled, or taken over by another worker since this one claimed it: this chunk is not ours.
  if (!ours(seen)) return nothing('stopped');
  const { chunk, copies, topic } = await readAndRender(deps, seen);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(broadcasts).where(eq(broadcasts.id, broadcastId)).for('update');
    if (!ours(row)) return nothing('stopped');
    // The cursor moved since the contacts were read (another run of this worker's, after a lease
    // was lost and won back): nothing stored, the next chunk reads again from where it is now.
    if (row.cursor !== seen.cursor) return nothing('more');
    const now = deps.clock.now();
    const sender = parseMailbox(row.from);
    const context = await loadSendContext({ db: tx, encryptionKey: deps.encryptionKey }, row.organizationId, [sender.domain], chunk.map((contact) => contact.email));
    const failure = failureOf(context, sender);
    if (failure) {
      await failBroadcast(tx, deps, row, failure);
      return nothing('failed');
    }
    const domain = context.domains.get(sender.domain)!;
    const principal = organizationPrincipal(row.organizationId, context.account?.plan ?? 'free');
    const copy = copyMaker(row, { principal, sender, domain, now });

    // Each contact in order: the copies handed to the admit door, and where each contact stands.
    const items: AdmitItem[] = [];
    const fates: Array<'absent' | 'skipped' | 'suppressed' | number> = [];
    // The contacts were read before this transaction (perhaps a chunk ahead): whoever unsubscribed
    // or was deleted since is read again here, under the lock, and gets nothing.
    const standing = await subscriptionsNow(tx, row, chunk, topic);
    for (const read of chunk) {
      const current = standing.get(read.id);
      if (!current) {
        fates.push('absent');
        continue;
      }
      const contact = read.subscribed && !current.subscribed ? { ...read, ...current } : read;
      // Unsubscribed before the start: never a recipient, not counted; since the start: skipped.
      if (!contact.subscribed) fates.push(row.startedAt && contact.updatedAt > row.startedAt ? 'skipped' : 'absent');
      else if (context.suppressed.has(contact.email)) fates.push('suppressed');
      else {
        const draft = copy(contact, copies.get(contact.id)!);
        fates.push(items.length);
        // A copy that could not be rendered is recorded as failed, outside the limits: nothing is sent.
        items.push('failed' in draft ? { drafted: { draft: draft.failed, recipients: 1, listShaped: true }, outsideLimits: true } : { drafted: { draft: draft.sent, recipients: 1, listShaped: true } });
      }
    }

    const { outcomes, wake } = await admit(deps, { via: 'broadcast', principal, kind: 'broadcast', items, tx, context, inOrder: true });
    const refusalAt = (fate: (typeof fates)[number]) => {
      const outcome = typeof fate === 'number' ? outcomes[fate] : null;
      return outcome && 'error' in outcome ? outcome.error : null;
    };
    // The limits refuse in order: every contact before the first refusal is handled, none after it.
    const stop = fates.findIndex((fate) => refusalAt(fate) !== null);
    const handled = stop === -1 ? fates.length : stop;
    const done = stop === -1 && chunk.length < CHUNK_CONTACTS;
    const handledFates = fates.slice(0, handled);
    const failedCopies = handledFates.filter((fate) => typeof fate === 'number' && 'outsideLimits' in items[fate]! && items[fate].outsideLimits).length;
    const [advanced] = await tx
      .update(broadcasts)
      .set({
        cursor: handled > 0 ? chunk[handled - 1]!.id : row.cursor,
        queued: sql`${broadcasts.queued} + ${wake.emailIds.length}`,
        suppressed: sql`${broadcasts.suppressed} + ${handledFates.filter((fate) => fate === 'suppressed').length}`,
        skipped: sql`${broadcasts.skipped} + ${handledFates.filter((fate) => fate === 'skipped').length + failedCopies}`,
        ...(done ? { status: 'sent' as const, sentAt: now, nextAttemptAt: null } : {}),
      })
      // The row is locked and ours; the cursor check keeps a chunk from ever being stored twice should that change.
      .where(and(eq(broadcasts.id, row.id), row.cursor === null ? sql`${broadcasts.cursor} is null` : eq(broadcasts.cursor, row.cursor)))
      .returning();
    if (!advanced) throw new Error(`broadcast ${row.id}: the cursor moved under a locked chunk`);
    const { emailIds, deliveriesQueued } = wake;
    if (done) await recordBroadcastEvent(tx, deps, advanced, 'broadcast.sent');
    if (stop !== -1) {
      const held = await holdBroadcast(tx, deps, advanced, holdFor(refusalAt(fates[stop]!) as AppError, now));
      return { outcome: 'held', emailIds, deliveriesQueued, systemEmailId: held.systemEmailId };
    }
    return { outcome: done ? 'sent' : 'more', emailIds, deliveriesQueued, systemEmailId: null };
  });
}

/** The topic is read with the chunk: its default never changes, so the transaction's re-check judges by the same one. */
type RenderedChunk = { chunk: ContactRow[]; copies: Map<string, RenderedCopy>; topic: BroadcastTopic | null };

const prefetch = createChunkPrefetch<RenderedChunk>();
const versionOf = (row: BroadcastRow) => (row.startedAt ?? row.updatedAt).getTime();

/**
 * The chunk at the cursor with its copies rendered: the one read ahead while the previous chunk
 * was stored, when there is one for this cursor, else read and rendered now. A full chunk starts
 * the next one's read and render (chunk-prefetch.ts) before its own transaction.
 */
async function readAndRender(deps: Deps, row: BroadcastRow): Promise<RenderedChunk> {
  const load = async (at: BroadcastRow): Promise<RenderedChunk> => {
    const topic = await broadcastTopic(deps.db, at.topicId);
    const chunk = await contactsAfterCursor(deps.db, at, topic);
    return { chunk, copies: await renderCopies(deps, at, chunk), topic };
  };
  const current = (await prefetch.take(row.id, row.cursor, versionOf(row))) ?? (await load(row));
  const last = current.chunk.at(-1);
  if (last && current.chunk.length === CHUNK_CONTACTS && last.id !== row.lastContactId) {
    prefetch.start(row.id, last.id, versionOf(row), () => load({ ...row, cursor: last.id }));
  }
  return current;
}

/** A contact's copy, rendered before the chunk's transaction: its email id, unsubscribe links, and content (or why it has none). */
interface RenderedCopy {
  emailId: string;
  links: { url: string; mailto: string };
  rendered: RenderedTemplate | AppError;
}

/** The copies of the chunk's subscribed contacts, rendered in the pool: one task for the chunk (a few for large content). */
async function renderCopies(deps: Pick<Deps, 'db' | 'config' | 'encryptionKey' | 'templateRenderer'>, row: BroadcastRow, chunk: ContactRow[]): Promise<Map<string, RenderedCopy>> {
  const key = unsubscribeKeyFrom(deps.encryptionKey);
  const recipients = chunk.filter((contact) => contact.subscribed);
  const fallbacks = recipients.length > 0 ? await propertyFallbacks(deps.db, row.organizationId) : {};
  const prepared = recipients.map((contact) => {
    const emailId = newId();
    return { contact, emailId, links: unsubscribeLinks(deps.config, sealUnsubscribeToken(key, { membershipId: contact.membershipId, emailId })) };
  });
  const content = { subject: row.subject ?? '', html: row.html, text: row.text, previewText: row.previewText };
  const version = { id: row.id, updatedAt: row.startedAt ?? row.updatedAt };
  const rendered = await renderForContacts(
    deps,
    version,
    content,
    prepared.map(({ contact, links }) => ({
      email: contact.email,
      name: contact.name,
      firstName: contact.firstName,
      lastName: contact.lastName,
      properties: { ...fallbacks, ...contact.properties },
      unsubscribeUrl: links.url,
    })),
  );
  return new Map(prepared.map(({ contact, emailId, links }, index) => [contact.id, { emailId, links, rendered: rendered[index]! }]));
}

/** Makes each contact's email from its rendered copy (emails/accept/list-copy.ts), as one of the broadcast's. */
function copyMaker(row: BroadcastRow, on: { principal: Principal; sender: Mailbox; domain: SendPermit['domain']; now: Date }) {
  return (contact: ContactRow, copy: RenderedCopy): { sent: EmailDraft } | { failed: EmailDraft } => {
    const listCopy = { ...copy, from: row.from, replyTo: row.replyTo, to: contact.email, subjectAsWritten: row.subject ?? '' };
    const made = draftListCopy(listCopy, on, 'the broadcast could not be rendered for this contact');
    Object.assign(('sent' in made ? made.sent : made.failed).row, { broadcastId: row.id, contactId: contact.id });
    return made;
  };
}

/**
 * A member as the fan-out reads it: whether it gets the broadcast (subscribed, and in the topic),
 * and when that last changed (its membership, the contact, or its choice about the topic). Under a
 * topic the member's choice is left-joined in the same select: one probe of the choices' primary
 * key per member of the chunk, never a scan of the topic's choices, and no query per contact.
 */
function members(db: Db, topic: BroadcastTopic | null, requireConfirmedConsent: boolean) {
  const receives = topic ? receivesBroadcastsJoined(topic) : receivesBroadcasts(null);
  const changed = topic ? sql`greatest(${audienceMemberships.updatedAt}, ${contacts.updatedAt}, ${contactTopics.updatedAt})` : sql`greatest(${audienceMemberships.updatedAt}, ${contacts.updatedAt})`;
  const query = db
    .select({
      id: contacts.id,
      membershipId: audienceMemberships.id,
      email: contacts.email,
      name: contacts.name,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      properties: contacts.properties,
      // A broadcast for confirmed contacts only skips the others as it skips those who left.
      subscribed: sql<boolean>`${requireConfirmedConsent ? sql`(${receives} and ${confirmedConsent})` : receives}`.mapWith(audienceMemberships.subscribed),
      // greatest() passes over a null: a contact who never chose about the topic.
      updatedAt: sql<Date>`${changed}`.mapWith(contacts.updatedAt),
    })
    .from(audienceMemberships)
    .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
    .$dynamic();
  return topic ? query.leftJoin(contactTopics, and(eq(contactTopics.contactId, contacts.id), eq(contactTopics.topicId, topic.id))) : query;
}

/** Whether each contact gets the broadcast now, and since when it last changed; one no longer in the audience is missing. */
async function subscriptionsNow(tx: Db, row: BroadcastRow, chunk: ContactRow[], topic: BroadcastTopic | null): Promise<Map<string, { subscribed: boolean; updatedAt: Date }>> {
  if (chunk.length === 0 || !row.audienceId) return new Map();
  const rows = await members(tx, topic, row.requireConfirmedConsent).where(and(eq(audienceMemberships.audienceId, row.audienceId), inArray(audienceMemberships.contactId, chunk.map((contact) => contact.id))));
  return new Map(rows.map((member) => [member.id, { subscribed: member.subscribed, updatedAt: member.updatedAt }]));
}

/** The audience's members after the cursor, by contact id, up to the newest when sending started; one who joined since is left out. */
function contactsAfterCursor(tx: Db, row: BroadcastRow, topic: BroadcastTopic | null): Promise<ContactRow[]> {
  if (!row.audienceId || !row.lastContactId) return Promise.resolve([]);
  return members(tx, topic, row.requireConfirmedConsent)
    .where(
      and(
        eq(audienceMemberships.audienceId, row.audienceId),
        row.cursor ? gt(audienceMemberships.contactId, row.cursor) : undefined,
        lte(audienceMemberships.contactId, row.lastContactId),
        row.startedAt ? lte(audienceMemberships.createdAt, row.startedAt) : undefined,
      ),
    )
    .orderBy(asc(audienceMemberships.contactId))
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
