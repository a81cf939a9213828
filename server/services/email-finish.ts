import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../deps';
import type { DispatchResult } from './email-dispatch';
import type { EmailStatus } from './emails';
import { recordEmailEvents } from './email-events';
import { aggregateEmailStatus, type RecipientState } from './email-status';
import { suppressAddress } from './suppressions';

type EmailRow = typeof emails.$inferSelect;

const FINAL_FROM_REPORTS = new Set(['bounced', 'complained']);
export type EmailEventInput = Parameters<typeof recordEmailEvents>[3][number];

/**
 * Stores what a dispatch step found, in one transaction: the recipients' states, the email's
 * status derived from them, its history, and (live emails only) the bounced addresses on the
 * organization's suppression list.
 */
export async function finishDispatch(deps: Deps, row: EmailRow, found: RecipientState[], events: EmailEventInput[], nextAttemptAt: Date | null, extra: Partial<EmailRow> = {}): Promise<DispatchResult> {
  const sent = Boolean(extra.sentAt ?? row.sentAt);
  let status = row.status as EmailStatus;
  await deps.db.transaction(async (tx) => {
    // A bounce or complaint may have been recorded while this step ran: it stands.
    const [current] = await tx.select({ states: emails.recipientStates }).from(emails).where(eq(emails.id, row.id)).for('update');
    const states = found.map((state, index) => (FINAL_FROM_REPORTS.has(current?.states[index]?.status ?? '') ? current!.states[index]! : state));
    status = aggregateEmailStatus(states) ?? (sent ? 'sent' : 'sending');
    await tx
      .update(emails)
      .set({ ...extra, status, recipientStates: states, nextAttemptAt, attempts: row.attempts + 1, updatedAt: deps.clock.now() })
      .where(eq(emails.id, row.id));
    await recordEmailEvents(tx, deps, row, events);
    if (row.mode === 'live') {
      for (const state of states) {
        if (state.status === 'bounced' && !row.recipientStates.some((before) => before.address === state.address && before.status === 'bounced')) {
          await suppressAddress(tx, deps, { organizationId: row.organizationId, email: state.address, reason: 'bounce', emailId: row.id });
        }
      }
    }
  });
  return { outcome: status, nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
}
