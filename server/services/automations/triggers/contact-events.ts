import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { topics } from '@/db/schema';
import type { EventContact, RaisedEvent } from './raise';

// The contact events a trigger can start on, built in one place so each contact service raises
// one with one call (raise.ts). The payload is what `event.*` variables and conditions read, in the
// definition's words (snake_case, as the trigger's own config).

/** A contact joined the organization subscribed: created so, or created pending and confirmed (docs/automations.md). */
export const contactCreated = (contacts: EventContact[]): RaisedEvent => ({ name: 'contact.created', contacts });

/** Contacts joined a list segment (audience), subscribed. */
export const addedToSegment = (segmentId: string, contacts: EventContact[]): RaisedEvent => ({
  name: 'contact.added_to_segment',
  contacts,
  about: { segmentId },
  payload: { segment_id: segmentId },
});

/** Contacts opted into a topic (a choice of their own, or made for them): from out (or the default out) to in. */
export const topicSubscribed = (topicId: string, contacts: EventContact[]): RaisedEvent => ({
  name: 'contact.topic_subscribed',
  contacts,
  about: { topicId },
  payload: { topic_id: topicId },
});

/**
 * Of the topics contacts just chose `opt_in` for where they had no choice before (an insert that
 * did nothing on conflict), those it changed: a topic whose default is `opt_in` had them in already.
 */
export async function topicsJoinedFrom(tx: Db, topicIds: string[]): Promise<string[]> {
  if (topicIds.length === 0) return [];
  const rows = await tx
    .select({ id: topics.id })
    .from(topics)
    .where(and(inArray(topics.id, [...new Set(topicIds)]), eq(topics.defaultSubscription, 'opt_out')));
  const out = new Set(rows.map((row) => row.id));
  return topicIds.filter((id) => out.has(id));
}
