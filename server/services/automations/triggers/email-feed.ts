import { and, asc, desc, eq, gt, inArray, isNull, lt, min, notExists, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationEmailFeeds, automations, contacts, emails, events } from '@/db/schema';
import type { Deps } from '../../../deps';
import { EMAIL_TRIGGER_EVENTS } from '../../../vocabulary/automations';
import { startRuns, wakeRuns, type TriggerEvent } from '../runs/start';

/**
 * How old an event must be before the feed reads it. Event ids are ordered by the time they were
 * made, not committed: an event made a moment before another may commit after it. The writers of
 * email events are single statements under the query bound (seconds), so an event this old is
 * either committed or never will be, and the cursor never passes one still to come.
 */
export const EMAIL_FEED_LAG_MS = 60_000;
/** Events read at once, in one transaction with the runs they start. */
const FEED_BATCH = 500;
const SWEEP_BUDGET_MS = 5_000;
const NONE = '00000000-0000-0000-0000-000000000000';

const LISTENING = and(inArray(automations.triggerEventName, [...EMAIL_TRIGGER_EVENTS]), eq(automations.status, 'enabled'), isNull(automations.deletedAt));

/**
 * The email events' trigger feed (docs/automations.md, "Email triggers"): the event log's
 * `email.*` rows of organizations with an enabled automation on an email event, read after a stored
 * cursor, each starting its runs for the email's contact, with the cursor moved in the same
 * transaction. Off the hot path: the one event writer (emails/events.ts) does no work for it.
 * Answers the runs started.
 */
export async function sweepEmailEventTriggers(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  // An organization that no longer listens drops its feed; one that does starts from when its earliest listening automation was last changed (enabled).
  await deps.db.delete(automationEmailFeeds).where(notExists(deps.db.select({ one: sql`1` }).from(automations).where(and(eq(automations.organizationId, automationEmailFeeds.organizationId), LISTENING))));
  const fresh = await deps.db
    .select({ organizationId: automations.organizationId, since: min(automations.updatedAt) })
    .from(automations)
    .where(and(LISTENING, notExists(deps.db.select({ one: sql`1` }).from(automationEmailFeeds).where(eq(automationEmailFeeds.organizationId, automations.organizationId)))))
    .groupBy(automations.organizationId);
  for (const feed of fresh) await startFeed(deps.db, feed.organizationId, feed.since ?? now, now);

  const feeds = await deps.db.select({ organizationId: automationEmailFeeds.organizationId }).from(automationEmailFeeds);
  const started = performance.now();
  let runs = 0;
  for (const { organizationId } of feeds) {
    for (;;) {
      const step = await feedOnce(deps, organizationId, now);
      runs += step.started;
      if (!step.more || performance.now() - started > SWEEP_BUDGET_MS || deps.claims.stopping) break;
    }
  }
  return runs;
}

/** The feed's first cursor: the last event of the organization made before `since` (the index on organization and id, read backwards). */
async function startFeed(db: Db, organizationId: string, since: Date, now: Date): Promise<void> {
  const [last] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.organizationId, organizationId), lt(events.createdAt, since)))
    .orderBy(desc(events.id))
    .limit(1);
  await db.insert(automationEmailFeeds).values({ organizationId, afterId: last?.id ?? NONE, fromAt: since, updatedAt: now }).onConflictDoNothing();
}

/** One batch of one organization's feed, in one transaction: its events read after the cursor, their runs started, the cursor moved. */
async function feedOnce(deps: Deps, organizationId: string, now: Date): Promise<{ started: number; more: boolean }> {
  const outcome = await deps.db.transaction(async (tx) => {
    const [feed] = await tx.select().from(automationEmailFeeds).where(eq(automationEmailFeeds.organizationId, organizationId)).for('update', { skipLocked: true });
    if (!feed) return { ids: [] as string[], more: false };
    const listened = await tx.selectDistinct({ name: automations.triggerEventName }).from(automations).where(and(eq(automations.organizationId, organizationId), LISTENING));
    if (listened.length === 0) return { ids: [], more: false };
    const read = await tx
      .select({ id: events.id, type: events.type, data: events.data, createdAt: events.createdAt })
      .from(events)
      .where(and(eq(events.organizationId, organizationId), gt(events.id, feed.afterId ?? NONE), inArray(events.type, listened.map((row) => row.name) as Array<(typeof events.type)['_']['data']>)))
      .orderBy(asc(events.id))
      .limit(FEED_BATCH);
    // Only the settled prefix: an event younger than the lag waits, and so does every event after it.
    const settledBefore = now.getTime() - EMAIL_FEED_LAG_MS;
    const young = read.findIndex((event) => event.createdAt.getTime() > settledBefore);
    const batch = young === -1 ? read : read.slice(0, young);
    if (batch.length === 0) return { ids: [], more: false };
    const who = await contactsOf(tx, organizationId, batch.map((event) => event.data));
    const ids: string[] = [];
    for (const event of batch) {
      const trigger = triggerEventOf(organizationId, event.type, event.data, who);
      if (trigger) ids.push(...(await startRuns(tx, deps, trigger)));
    }
    await tx.update(automationEmailFeeds).set({ afterId: batch.at(-1)!.id, updatedAt: now }).where(eq(automationEmailFeeds.organizationId, organizationId));
    return { ids, more: young === -1 && read.length === FEED_BATCH };
  });
  wakeRuns(deps, outcome.ids);
  return { started: outcome.ids.length, more: outcome.more };
}

/** The address an email event concerns: its recipient, else the email's one `to`. */
function addressOf(data: Record<string, unknown>): string | null {
  const to = Array.isArray(data.to) && data.to.length === 1 ? data.to[0] : null;
  const raw = typeof data.recipient === 'string' ? data.recipient : typeof to === 'string' ? to : null;
  if (!raw) return null;
  return (/<([^>]+)>\s*$/.exec(raw)?.[1] ?? raw).trim().toLowerCase();
}

interface Who {
  byEmailId: Map<string, { id: string; email: string }>;
  byAddress: Map<string, { id: string; email: string }>;
}

/** The contacts the batch's events are about: the email's own contact (list mail names it), else the organization's contact of the address. */
async function contactsOf(tx: Db, organizationId: string, data: Array<Record<string, unknown>>): Promise<Who> {
  const emailIds = [...new Set(data.map((one) => one.emailId).filter((id): id is string => typeof id === 'string'))];
  const byEmailId = new Map<string, { id: string; email: string }>();
  if (emailIds.length > 0) {
    const rows = await tx
      .select({ emailId: emails.id, id: contacts.id, email: contacts.email })
      .from(emails)
      .innerJoin(contacts, eq(contacts.id, emails.contactId))
      .where(and(inArray(emails.id, emailIds), eq(emails.organizationId, organizationId)));
    for (const row of rows) byEmailId.set(row.emailId, { id: row.id, email: row.email });
  }
  const addresses = [...new Set(data.map(addressOf).filter((address): address is string => address !== null))];
  const byAddress = new Map<string, { id: string; email: string }>();
  if (addresses.length > 0) {
    const rows = await tx
      .select({ id: contacts.id, email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.organizationId, organizationId), inArray(contacts.email, addresses)));
    for (const row of rows) byAddress.set(row.email, row);
  }
  return { byEmailId, byAddress };
}

/** The trigger event of one logged email event, or null: a machine's open or click, or an email of nobody among the contacts. */
function triggerEventOf(organizationId: string, type: string, data: Record<string, unknown>, who: Who): TriggerEvent | null {
  if ((type === 'email.opened' || type === 'email.clicked') && data.machine === true) return null;
  const emailId = typeof data.emailId === 'string' ? data.emailId : null;
  const address = addressOf(data);
  const contact = (emailId ? who.byEmailId.get(emailId) : undefined) ?? (address ? who.byAddress.get(address) : undefined);
  if (!contact) return null;
  const tags = Array.isArray(data.tags) ? (data.tags as Array<{ name: string; value: string }>).filter((tag) => tag && typeof tag.name === 'string') : [];
  return {
    organizationId,
    name: type,
    payload: { email_id: emailId, subject: data.subject ?? null, tags: Object.fromEntries(tags.map((tag) => [tag.name, tag.value])), ...(typeof data.url === 'string' ? { url: data.url } : {}) },
    test: data.mode === 'test',
    contacts: [contact],
    about: { tags },
  };
}
