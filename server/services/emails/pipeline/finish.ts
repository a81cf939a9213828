import type { Deps } from '../../../deps';
import { normalizeAddress } from '../../shared/addresses';
import type { EmailEventInput } from '../events';
import type { RecipientState } from '../recipients';
import { recordOutcome, type Outcome, type RecipientChange } from './outcomes';
import type { ClaimedEmail, DispatchResult } from './types';

export type { EmailEventInput };

const dueOf = (at: string | null | undefined) => (at ? Date.parse(at) : null);

/** The recipients a step changed, as it leaves them: only their rows are written. */
function changesOf(row: ClaimedEmail, found: RecipientState[], nextAttemptAt: Date | null): RecipientChange[] {
  const before = new Map(row.recipients.map((recipient) => [recipient.index, recipient]));
  return found
    .filter((recipient) => {
      const was = before.get(recipient.index);
      return (
        !was ||
        was.status !== recipient.status ||
        was.attempts !== recipient.attempts ||
        was.response !== recipient.response ||
        (recipient.status === 'deferred' && recipient.nextAttemptAt !== undefined && dueOf(was.nextAttemptAt) !== dueOf(recipient.nextAttemptAt))
      );
    })
    .map(({ index, status, attempts, response, nextAttemptAt: own }) => ({
      index,
      status,
      attempts,
      response,
      // Its own due time when the step set one, otherwise the email's.
      nextAttemptAt: status === 'deferred' ? (own ? new Date(own) : nextAttemptAt) : null,
    }));
}

/** Recipients this step bounced that were not bounced before: live emails put them on the suppression list. */
function newlyBounced(row: ClaimedEmail, found: RecipientState[]): string[] {
  if (row.mode !== 'live') return [];
  const before = new Map(row.recipients.map((recipient) => [recipient.index, recipient.status]));
  const addresses = found.filter((recipient) => recipient.status === 'bounced' && before.get(recipient.index) !== 'bounced').map((recipient) => normalizeAddress(recipient.address));
  return [...new Set(addresses)];
}

/**
 * Stores what a dispatch step found, atomically: the rows of the recipients it changed, the
 * email's status derived from all its recipients' rows, its history, and (live emails only) the
 * bounced addresses on the organization's suppression list; one statement shared with other
 * emails finishing at the same time. A bounce or complaint recorded while this step ran stands
 * (outcomes.ts).
 */
export async function finishDispatch(
  deps: Deps,
  row: ClaimedEmail,
  found: RecipientState[],
  events: EmailEventInput[],
  nextAttemptAt: Date | null,
  extra: Outcome['extra'] = {},
): Promise<DispatchResult> {
  const outcome: Outcome = {
    email: row,
    recipients: changesOf(row, found, nextAttemptAt),
    nextAttemptAt,
    extra,
    events,
    suppress: newlyBounced(row, found),
    at: deps.clock.now(),
    worker: deps.claims.id,
  };
  // The step has happened (a message may be on its way): what it found is kept until the database takes it.
  return deps.claims.untilRecorded(async () => {
    const status = await recordOutcome(deps, outcome);
    // Gone (erased while it was sent): nothing of it is left to record.
    if (!status) return { outcome: 'skipped', nextAttemptAt: null };
    return { outcome: status, nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
  });
}
