import { eq } from 'drizzle-orm';
import { topics } from '@/db/schema';
import type { Db } from '@/db/client';
import type { BroadcastTopic } from '../contacts/fields';

/**
 * The topic a broadcast is sent under, as its recipients are judged by it (`receivesBroadcasts`);
 * null for a broadcast without one. A topic gone meanwhile (deleting one is refused while a broadcast
 * that is not finished names it, so only a race leaves this) took its choices with it: it is read as
 * an `opt_in` topic no one joined, so the broadcast reaches no one rather than everyone. `share`
 * keeps it from being deleted until the caller's transaction ends.
 */
export async function broadcastTopic(db: Db, topicId: string | null, options: { share?: boolean } = {}): Promise<BroadcastTopic | null> {
  if (!topicId) return null;
  const query = db.select({ id: topics.id, defaultSubscription: topics.defaultSubscription }).from(topics).where(eq(topics.id, topicId));
  const [row] = await (options.share ? query.for('share') : query);
  return row ?? { id: topicId, defaultSubscription: 'opt_in' };
}
