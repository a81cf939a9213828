import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { normalizeAddress } from '../../shared/addresses';
import type { EmailStatus } from '../statuses';
import { recordEmailEvents, type EmailEventInput } from '../events';
import { recordOutcome, type Outcome } from './outcomes';
import { unclaimedBy } from '../../shared/claims/lease';
import { aggregateEmailStatus, type RecipientState } from '../aggregate-status';
import { suppressAddress } from '../../suppressions/suppressions';
import type { DispatchResult, EmailRow } from './types';

const FINAL_FROM_REPORTS = new Set(['bounced', 'complained']);
export type { EmailEventInput };

const statusOf = (states: RecipientState[], sent: boolean): EmailStatus => aggregateEmailStatus(states) ?? (sent ? 'sent' : 'sending');

/** Recipients this step bounced that were not bounced before: live emails put them on the suppression list. */
const newlyBounced = (row: EmailRow, states: RecipientState[]) =>
  row.mode !== 'live'
    ? []
    : states.filter((state) => state.status === 'bounced' && !row.recipientStates.some((before) => before.address === state.address && before.status === 'bounced'));

/**
 * Stores what a dispatch step found, atomically: the recipients' states, the email's status
 * derived from them, its history, and (live emails only) the bounced addresses on the
 * organization's suppression list. Usually one statement shared with other emails finishing at
 * the same time; when a bounce or complaint was recorded while this step ran, under a row lock
 * instead, so the report stands.
 */
export async function finishDispatch(deps: Deps, row: EmailRow, found: RecipientState[], events: EmailEventInput[], nextAttemptAt: Date | null, extra: Outcome['extra'] = {}): Promise<DispatchResult> {
  const sent = Boolean(extra.sentAt ?? row.sentAt);
  const status = statusOf(found, sent);
  const suppress = newlyBounced(row, found).map((state) => state.address);
  const outcome: Outcome = {
    email: row,
    states: found,
    status,
    nextAttemptAt,
    extra,
    events,
    suppress: [...new Set(suppress.map(normalizeAddress))],
    at: deps.clock.now(),
    worker: deps.claims.id,
  };
  // The step has happened (a message may be on its way): what it found is kept until the database takes it.
  return deps.claims.untilRecorded(async () => {
    if (await recordOutcome(deps, outcome)) return { outcome: status, nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
    return finishLocked(deps, row, found, events, nextAttemptAt, extra);
  });
}

async function finishLocked(deps: Deps, row: EmailRow, found: RecipientState[], events: EmailEventInput[], nextAttemptAt: Date | null, extra: Outcome['extra']): Promise<DispatchResult> {
  const sent = Boolean(extra.sentAt ?? row.sentAt);
  let status: EmailStatus = row.status;
  await deps.db.transaction(async (tx) => {
    // A bounce or complaint may have been recorded while this step ran: it stands.
    const [current] = await tx.select({ states: emails.recipientStates }).from(emails).where(eq(emails.id, row.id)).for('update');
    const states = found.map((state, index) => (FINAL_FROM_REPORTS.has(current?.states[index]?.status ?? '') ? current!.states[index]! : state));
    status = statusOf(states, sent);
    await tx
      .update(emails)
      .set({ ...extra, status, recipientStates: states, nextAttemptAt, attempts: row.attempts + 1, updatedAt: deps.clock.now(), ...unclaimedBy(emails, deps.claims.id) })
      .where(eq(emails.id, row.id));
    await recordEmailEvents(tx, deps, row, events);
    for (const state of newlyBounced(row, states)) {
      await suppressAddress(tx, deps, { organizationId: row.organizationId, email: state.address, reason: 'bounce', emailId: row.id });
    }
  });
  return { outcome: status, nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
}
