import type { Deps } from '../../../deps';
import { AppError, notFound } from '../../../errors';
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
import type { EmailDraft, StoreResult } from './store';

/** An email that passed every other check, asking the limits for room. */
export interface Candidate {
  draft: EmailDraft;
  /** Live recipients it will be sent to (suppressed ones are not sent, so not counted). */
  recipients: number;
  listShaped: boolean;
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

export interface LimitOptions {
  /**
   * The candidates are taken in order and none after the first refused one is stored (a
   * broadcast's contacts: the next chunk starts at the refused one); those after it get its refusal.
   */
  inOrder?: boolean;
  /** Drafts stored in the same statement without being counted (a copy recorded as failed), given the candidates' refusals. */
  alongside?: (refusals: Array<AppError | null>) => EmailDraft[];
}

export interface WithinLimits {
  /** Per candidate, in order: null when it was stored within the limits, else why not. */
  refusals: Array<AppError | null>;
  result: StoreResult;
  /** The limits in force when this store took the month past its quota into metered overage: the owner is told once a month. */
  overageEntered: SendingLimits | null;
}

/** A store that stored nothing: a fresh value each time, as callers may read its set. */
export const nothingStored = (): StoreResult => ({ stored: new Set(), deliveriesQueued: false, reserved: true, monthRecipients: null });

/** In order: every candidate from the first refused one on is refused as it was, and only those before it are allotted. */
function stopAtFirstRefusal(account: SendingAccount, kind: SendKind, counters: UsageCounters, now: Date, candidates: Candidate[]) {
  const allotted = allotNow(account, kind, counters, now, candidates);
  const stop = allotted.allotment.refusals.findIndex((refusal) => refusal !== null);
  if (stop === -1) return allotted;
  const before = allotNow(account, kind, counters, now, candidates.slice(0, stop));
  const refused = allotted.allotment.refusals[stop]!;
  return { ...before, allotment: { ...before.allotment, refusals: candidates.map((_, index) => (index < stop ? null : refused)) } };
}

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
  options: LimitOptions = {},
): Promise<WithinLimits> {
  const alongside = options.alongside ?? (() => []);
  if (principal.mode === 'test') {
    const refusals = candidates.map(() => null);
    const drafts = [...candidates.map((c) => c.draft), ...alongside(refusals)];
    return { refusals, result: drafts.length > 0 ? await store(drafts, null) : nothingStored(), overageEntered: null };
  }
  const account = await accountNow(deps, principal, context);
  let counters = context.counters;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const now = deps.clock.now();
    const { limits, allotment } = options.inOrder ? stopAtFirstRefusal(account, kind, counters, now, candidates) : allotNow(account, kind, counters, now, candidates);
    const accepted = candidates.filter((_, index) => allotment.refusals[index] === null);
    const uncounted = alongside(allotment.refusals);
    if (accepted.length === 0) return { refusals: allotment.refusals, result: uncounted.length > 0 ? await store(uncounted, null) : nothingStored(), overageEntered: null };
    const result = await store(
      [...accepted.map((c) => c.draft), ...uncounted],
      reservationOf(principal.organizationId, limits, allotment),
    );
    if (result.reserved) {
      const month = result.monthRecipients ?? 0;
      const overageEntered = limits.overage && month > limits.quota && counters.overageNotifiedMonth !== limits.month ? limits : null;
      return { refusals: allotment.refusals, result, overageEntered };
    }
    // Another sender took the room meanwhile, or the organization has no counter row yet.
    counters = (await readUsageCounters(deps, principal.organizationId)) ?? (await createUsageCounters(deps, principal.organizationId, limits));
  }
  throw new AppError('RATE_LIMITED', 'Concurrent sends keep taking the room this one counted on; retry');
}
