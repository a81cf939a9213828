import type { AppError } from '../../../errors';
import { LIST_SEND_ALLOWANCE, type SendingLimits, type SendRequest, type Used } from '../../plans/sending-limits';
import type { LimitsVerdict, LimitUse } from './verdict';

const use = (limit: number, used: number, requested: number, fits: boolean): LimitUse => ({ limit, used, requested, left: Math.max(0, limit - used - (fits ? requested : 0)) });

/**
 * What each request would use of the limits, walked in the order they are allotted (limits.ts of
 * plans): a request refused takes nothing, so the next one meets the same counters.
 */
export function limitsOfRequests(limits: SendingLimits, used: Used, requests: SendRequest[], refusals: Array<AppError | null>): LimitsVerdict[] {
  let { day, month, list } = used;
  return requests.map((request, index) => {
    const fits = refusals[index] === null;
    const listRequested = request.listShaped ? request.recipients : 0;
    const verdict: LimitsVerdict = {
      daily: { ...use(limits.ceiling.limit, day, request.recipients, fits), resetsAt: limits.dayResetsAt.toISOString() },
      monthly: { ...use(limits.monthLimit, month, request.recipients, fits), quota: limits.quota, overage: limits.overage, resetsAt: limits.monthResetsAt.toISOString() },
      // A reviewed account has no list-send allowance to use up.
      listAllowance: limits.listLimit === LIST_SEND_ALLOWANCE ? use(limits.listLimit, list, listRequested, fits) : null,
    };
    if (fits) {
      day += request.recipients;
      month += request.recipients;
      list += listRequested;
    }
    return verdict;
  });
}
