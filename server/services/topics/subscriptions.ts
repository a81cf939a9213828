import { and, asc, eq, sql } from 'drizzle-orm';
import { contactTopics, topics, type TopicDefaultSubscription } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { notFound, validationError } from '../../errors';
import type { Principal } from '../shared/principal';
import { topicSubscribed } from '../automations/triggers/contact-events';
import { raiseEvents } from '../automations/triggers/raise';

/** Where a contact stands in a topic, in the words of the topic's default (Resend's `subscription`). */
export type TopicSubscription = TopicDefaultSubscription;

export interface ContactTopicView {
  id: string;
  name: string;
  description: string | null;
  subscription: TopicSubscription;
}

/** A change a caller asked for: the topic, and in or out. */
export interface TopicChoice {
  id: string;
  subscription: TopicSubscription;
}

/** A topic whose state a write changed, for the audit log. */
export interface TopicChange {
  id: string;
  name: string;
  from: TopicSubscription;
  to: TopicSubscription;
}

const stateOf = (choice: boolean | null, defaultSubscription: TopicDefaultSubscription): TopicSubscription =>
  choice === null ? defaultSubscription : choice ? 'opt_in' : 'opt_out';

/** Every topic of the organization with the contact's state (its own choice, else the default), in the order the topics were made. */
async function topicStates(db: Db, organizationId: string, contactId: string) {
  const rows = await db
    .select({ id: topics.id, name: topics.name, description: topics.description, defaultSubscription: topics.defaultSubscription, choice: contactTopics.subscribed })
    .from(topics)
    .leftJoin(contactTopics, and(eq(contactTopics.topicId, topics.id), eq(contactTopics.contactId, contactId)))
    .where(eq(topics.organizationId, organizationId))
    .orderBy(asc(topics.createdAt), asc(topics.id));
  return rows.map((row) => ({ ...row, subscription: stateOf(row.choice, row.defaultSubscription) }));
}

/**
 * Every topic of the organization with where the contact stands in it (`GET
 * /contacts/{idOrEmail}/topics`). The contact must be the organization's (the caller found it).
 */
export async function topicSubscriptionsOf(db: Db, principal: Pick<Principal, 'organizationId'>, contactId: string): Promise<ContactTopicView[]> {
  const rows = await topicStates(db, principal.organizationId, contactId);
  return rows.map(({ id, name, description, subscription }) => ({ id, name, description, subscription }));
}

/**
 * Writes the contact's choices, in the caller's transaction: each named topic's state becomes the
 * one given, kept as the contact's own choice (so it holds whatever the default). A topic that is not
 * the organization's is a 404 naming it, a topic named twice a 400, before anything is written.
 * Answers the topics whose state changed; the caller records them (`contact.topics_updated`, or
 * in its own entry when it creates the contact). The contact must be the organization's.
 */
export async function setTopicSubscriptions(
  tx: Db,
  deps: Pick<Deps, 'clock' | 'jobs'>,
  principal: Pick<Principal, 'organizationId'>,
  contactId: string,
  choices: TopicChoice[],
): Promise<TopicChange[]> {
  const seen = new Set<string>();
  for (const [index, choice] of choices.entries()) {
    const id = choice.id.toLowerCase();
    if (seen.has(id)) throw validationError(`topics[${index}].id: the topic ${id} is given twice`);
    seen.add(id);
  }
  if (choices.length === 0) return [];
  const states = new Map((await topicStates(tx, principal.organizationId, contactId)).map((row) => [row.id, row]));
  const missing = [...seen].find((id) => !states.has(id));
  if (missing) throw notFound(`Topic ${missing}`);
  const now = deps.clock.now();
  const wanted = choices.map((choice) => ({ topicId: choice.id.toLowerCase(), subscribed: choice.subscription === 'opt_in' }));
  // One statement for all of them; a choice that stays as it was keeps its time (the fan-out reads it).
  await tx
    .insert(contactTopics)
    .values(wanted.map((choice) => ({ contactId, topicId: choice.topicId, organizationId: principal.organizationId, subscribed: choice.subscribed, updatedAt: now })))
    .onConflictDoUpdate({
      target: [contactTopics.contactId, contactTopics.topicId],
      set: { subscribed: sql`excluded.subscribed`, updatedAt: sql`excluded.updated_at` },
      setWhere: sql`${contactTopics.subscribed} is distinct from excluded.subscribed`,
    });
  const changes = wanted.flatMap((choice) => {
    const before = states.get(choice.topicId)!;
    const to: TopicSubscription = choice.subscribed ? 'opt_in' : 'opt_out';
    return before.subscription === to ? [] : [{ id: before.id, name: before.name, from: before.subscription, to }];
  });
  const joined = changes.filter((change) => change.to === 'opt_in');
  await raiseEvents(tx, deps, principal, joined.map((change) => topicSubscribed(change.id, [{ id: contactId }])));
  return changes;
}

/**
 * Takes the contact out of one topic (an unsubscribe through a message sent under it), in the
 * caller's transaction. Answers whether it was in it; out already, nothing is written.
 */
export async function leaveTopic(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, contact: { id: string; organizationId: string }, topicId: string): Promise<boolean> {
  const changes = await changeTopics(tx, deps, contact, [{ id: topicId, subscription: 'opt_out' }]);
  return changes.length > 0;
}

/**
 * The person's own choices from the preference page, in the caller's transaction: only the topics
 * whose state changes are written (an unchanged box pins nothing). Topics no longer there are passed over.
 */
export async function changeTopics(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, contact: { id: string; organizationId: string }, choices: TopicChoice[]): Promise<TopicChange[]> {
  if (choices.length === 0) return [];
  const states = await topicStates(tx, contact.organizationId, contact.id);
  const current = new Map(states.map((row) => [row.id, row.subscription]));
  const changing = choices.filter((choice) => current.has(choice.id) && current.get(choice.id) !== choice.subscription);
  if (changing.length === 0) return [];
  return setTopicSubscriptions(tx, deps, contact, contact.id, changing);
}
