import { eq } from 'drizzle-orm';
import { topics } from '@/db/schema';
import type { Db } from '@/db/client';
import type { BroadcastTopic } from '../contacts/fields';

/**
 * The topic a broadcast is sent under, as its recipients are judged by it (`receivesBroadcasts`);
 * null for a broadcast without one. A topic gone meanwhile (deleting one is refused while a
 * broadcast that is not finished names it, so only a race leaves this) took its choices with it:
 * it is read as an `opt_out` topic no one joined, so the broadcast reaches no one rather than everyone.
 */
export async function broadcastTopic(db: Db, topicId: string | null): Promise<BroadcastTopic | null> {
  if (!topicId) return null;
  const [row] = await db.select({ id: topics.id, defaultSubscription: topics.defaultSubscription }).from(topics).where(eq(topics.id, topicId));
  return row ?? { id: topicId, defaultSubscription: 'opt_out' };
}
