import type { Db } from '@/db/client';

/**
 * Why an audience cannot be deleted now (a broadcast to it is scheduled, sending or held), asked
 * of every resource that sends to audiences. Broadcasts register theirs; each answers a sentence,
 * or null when it holds nothing.
 */
export type AudienceHold = (tx: Db, audienceId: string) => Promise<string | null>;

const holds: AudienceHold[] = [];

/** Adds a check that can keep audiences from being deleted (called once, when its module loads). */
export function registerAudienceHold(hold: AudienceHold): () => void {
  holds.push(hold);
  return () => void holds.splice(holds.indexOf(hold), 1);
}

/** The first reason an audience is held, in the caller's transaction, or null. */
export async function audienceHeldBy(tx: Db, audienceId: string): Promise<string | null> {
  for (const hold of holds) {
    const reason = await hold(tx, audienceId);
    if (reason) return reason;
  }
  return null;
}
