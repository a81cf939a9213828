import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../deps';
import type { DispatchResult } from './email-dispatch';
import { recordEmailEvents } from './email-events';
import { aggregateEmailStatus, type RecipientState } from './email-status';
import { suppressAddress } from './suppressions';

type EmailRow = typeof emails.$inferSelect;
export type EmailEventInput = Parameters<typeof recordEmailEvents>[3][number];

/**
 * Stores what a dispatch step found, in one transaction: the recipients' states, the email's
 * status derived from them, its history, and (live emails only) the bounced addresses on the
 * organization's suppression list.
 */
export async function finishDispatch(deps: Deps, row: EmailRow, states: RecipientState[], events: EmailEventInput[], nextAttemptAt: Date | null, extra: Partial<EmailRow> = {}): Promise<DispatchResult> {
  const sent = Boolean(extra.sentAt ?? row.sentAt);
  const status = aggregateEmailStatus(states, sent);
  await deps.db.transaction(async (tx) => {
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

