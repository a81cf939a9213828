import type { Deps } from '../../../deps';
import { AppError, notFound } from '../../../errors';
import { noticeOverageEntered } from '../../plans/overage-notice';
import {
  allot,
  reservationOf,
  sendingLimits,
  usedNow,
  type Allotment,
  type Reservation,
  type SendingAccount,
  type SendingLimits,
  type SendKind,
  type SendRequest,
  type UsageCounters,
  type Used,
} from '../../plans/sending-limits';
import { refreshStanding } from '../../plans/standing';
import { createUsageCounters, readUsageCounters } from '../../plans/usage-counters';
import type { Principal } from '../../shared/principal';
import type { SendContext } from './context';
import { emailSource } from '../source';
import type { EmailDraft, StoreResult } from './store';

/** An email that passed every other check, asking the limits for room. */
export interface Candidate {
  draft: EmailDraft;
  /** Live recipients it will be sent to (suppressed ones are not sent, so not counted). */
  recipients: number;
  listShaped: boolean;
}

function countAccepted(deps: Deps, principal: Principal, candidates: Candidate[], result: StoreResult): void {
  const bySource = new Map<string, number>();
  for (const { draft } of candidates) {
    if (!result.stored.has(draft.row.id)) continue;
    const source = emailSource({ submittedVia: draft.row.submittedVia ?? null, broadcastId: draft.row.broadcastId ?? null });
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  for (const [source, count] of bySource) deps.metrics.emailsAccepted({ source, mode: principal.mode }, count);
}

/** The account as the limits read it: its standing evaluated again once an hour (by a send or a usage read). */
export async function accountNow(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, context: SendContext): Promise<SendingAccount> {
  if (!context.account) throw notFound('Organization');
  return { ...context.account, ...(await refreshStanding(deps, principal.organizationId, context.account)) };
}

/** The limits in force now and the room they allot, in order, from these counters. */
export function allotNow(account: SendingAccount, kind: SendKind, counters: UsageCounters, now: Date, candidates: SendRequest[]): { limits: SendingLimits; used: Used; allotment: Allotment } {
  const limits = sendingLimits(account, kind, now);
  const used = usedNow(counters, limits);
  return { limits, used, allotment: allot(limits, used, candidates) };
}

/** A send whose counters keep moving under it this many times in a row is told to retry. */
const MAX_ROUNDS = 20;

/**
 * The monthly quota, the daily ceiling and the list-send allowance, last of the refusals before
 * queueing. Allots room to the candidates in order from the counters read with the send context,
 * then stores them with a reservation that the store statement checks again under the counters'
 * row lock. When another sender took the room meanwhile, nothing was stored: the counters are read
 * again and the candidates allotted again. Test mode sends nothing and counts nothing.
 */
export async function storeWithinLimits(
  deps: Deps,
  principal: Principal,
  context: SendContext,
  kind: SendKind,
  candidates: Candidate[],
  store: (drafts: EmailDraft[], reservation: Reservation | null) => Promise<StoreResult>,
): Promise<{ refusals: Array<AppError | null>; result: StoreResult }> {
  if (principal.mode === 'test') {
    const result = await store(
      candidates.map((c) => c.draft),
      null,
    );
    countAccepted(deps, principal, candidates, result);
    return { refusals: candidates.map(() => null), result };
  }
  const account = await accountNow(deps, principal, context);
  let counters = context.counters;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const { limits, allotment } = allotNow(account, kind, counters, deps.clock.now(), candidates);
    const accepted = candidates.filter((_, index) => allotment.refusals[index] === null);
    if (accepted.length === 0) return { refusals: allotment.refusals, result: { stored: new Set(), deliveriesQueued: false, reserved: true, monthRecipients: null } };
    const result = await store(
      accepted.map((c) => c.draft),
      reservationOf(principal.organizationId, limits, allotment),
    );
    if (result.reserved) {
      const month = result.monthRecipients ?? 0;
      if (limits.overage && month > limits.quota && counters.overageNotifiedMonth !== limits.month) {
        // The email is accepted already: a failed notice is logged, never turned into a refusal the client would retry.
        await noticeOverageEntered(deps, principal.organizationId, limits).catch((err: unknown) => deps.log.error({ err, organizationId: principal.organizationId }, 'overage notice failed'));
      }
      countAccepted(deps, principal, accepted, result);
      return { refusals: allotment.refusals, result };
    }
    // Another sender took the room meanwhile, or the organization has no counter row yet.
    counters = (await readUsageCounters(deps, principal.organizationId)) ?? (await createUsageCounters(deps, principal.organizationId, limits));
  }
  throw new AppError('RATE_LIMITED', 'Concurrent sends keep taking the room this one counted on; retry');
}
