import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { emailEvents } from '@/db/schema';
import type { EmailEventType } from '../../vocabulary/event-types';

/*
 * An email's history is its stored events, with one entry told from the email itself: its
 * acceptance ("queued"), which is always at the email's creation, for no one recipient, with no
 * data. Storing it cost every accepted email a row, two index entries and their WAL; reading it
 * costs nothing. Emails stored before keep their row and get no second entry. A scheduled email's
 * acceptance ("scheduled", with the time asked for) stays stored: its data is its own.
 */

/** The acceptance entry the store leaves to {@link emailHistory}. */
export const UNSTORED_HISTORY_TYPE = 'email.queued' satisfies EmailEventType;

/** The acceptance entries: one of them opens every email's history, stored or told. */
const ACCEPTANCE_TYPES: readonly EmailEventType[] = [UNSTORED_HISTORY_TYPE, 'email.scheduled'];

export interface HistoryEntry {
  type: EmailEventType;
  recipient: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** The email's history, oldest first, its acceptance included. */
export async function emailHistory(db: Db, email: { id: string; createdAt: Date }): Promise<HistoryEntry[]> {
  const stored: HistoryEntry[] = await db
    .select({ type: emailEvents.type, recipient: emailEvents.recipient, data: emailEvents.data, createdAt: emailEvents.createdAt })
    .from(emailEvents)
    .where(eq(emailEvents.emailId, email.id))
    .orderBy(asc(emailEvents.id));
  if (stored.some((entry) => ACCEPTANCE_TYPES.includes(entry.type))) return stored;
  return [{ type: UNSTORED_HISTORY_TYPE, recipient: null, data: {}, createdAt: email.createdAt }, ...stored];
}
