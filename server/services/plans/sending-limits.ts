import { AppError } from '../../errors';
import { calendarOf, startOfNextUtcDay, startOfNextUtcMonth } from './calendar';
import { dailyCeiling, type DailyCeiling } from './ceiling';
import { effectivePlan, type PlanColumns } from './effective';
import { overageHeadroom } from './overage';
import type { Plan } from './plans';
import type { Standing } from './standing';

/** Recipients an account may reach in list-shaped sends before an operator reviews it (one-time). */
export const LIST_SEND_ALLOWANCE = 500;
const UNBOUNDED = 2_147_483_647;

/** What the limits read of an organization. */
export interface SendingAccount extends PlanColumns, Standing {
  reviewed: boolean;
  overageEnabled: boolean;
}

/** The organization's live counters as stored; a day or month that has passed counts as zero. */
export interface UsageCounters {
  day: string | null;
  dayRecipients: number;
  month: string | null;
  monthRecipients: number;
  listRecipients: number;
  overageNotifiedMonth: string | null;
}

export const NO_USAGE: UsageCounters = { day: null, dayRecipients: 0, month: null, monthRecipients: 0, listRecipients: 0, overageNotifiedMonth: null };

/** Transactional sends may use metered overage; broadcasts always stop at the quota. */
export type SendKind = 'transactional' | 'broadcast';

export interface SendingLimits {
  plan: Plan;
  day: string;
  month: string;
  ceiling: DailyCeiling;
  quota: number;
  /** The month's stop: the quota, or with overage on (transactional) the quota plus the overage headroom. */
  monthLimit: number;
  overage: boolean;
  listLimit: number;
  dayResetsAt: Date;
  monthResetsAt: Date;
}

export function sendingLimits(account: SendingAccount, kind: SendKind, now: Date): SendingLimits {
  const plan = effectivePlan(account, now);
  const overage = kind === 'transactional' && account.overageEnabled && plan.overagePer1000EurCents !== null;
  return {
    plan,
    ...calendarOf(now),
    ceiling: dailyCeiling(plan, account, now),
    quota: plan.monthlyEmails,
    monthLimit: plan.monthlyEmails + (overage ? overageHeadroom(plan) : 0),
    overage,
    listLimit: account.reviewed ? UNBOUNDED : LIST_SEND_ALLOWANCE,
    dayResetsAt: startOfNextUtcDay(now),
    monthResetsAt: startOfNextUtcMonth(now),
  };
}

export interface Used {
  day: number;
  month: number;
  list: number;
}

export const usedNow = (counters: UsageCounters, limits: Pick<SendingLimits, 'day' | 'month'>): Used => ({
  day: counters.day === limits.day ? counters.dayRecipients : 0,
  month: counters.month === limits.month ? counters.monthRecipients : 0,
  list: counters.listRecipients,
});

/** One email asking for room: its live recipients, and whether they count against the list-send allowance. */
export interface SendRequest {
  recipients: number;
  listShaped: boolean;
}

export interface Allotment {
  /** Per request, in order: null when it fits, else why not. */
  refusals: Array<AppError | null>;
  recipients: number;
  listRecipients: number;
}

const count = (n: number) => n.toLocaleString('en');

function monthRefusal(limits: SendingLimits, used: number): AppError {
  const resets = limits.monthResetsAt.toISOString();
  if (limits.overage) {
    return new AppError('MONTHLY_LIMIT_EXCEEDED', `The metered-overage ceiling is reached (${count(used)} of ${count(limits.monthLimit)} emails this month, the quota is ${count(limits.quota)}): past it the next volume is cheaper. Upgrade, or wait for ${resets}`);
  }
  return new AppError('MONTHLY_LIMIT_EXCEEDED', `The monthly quota of ${count(limits.quota)} emails is used (${count(used)} this month); sending resumes at ${resets}. Upgrade, or turn on metered overage for transactional mail`);
}

const dayRefusal = (limits: SendingLimits, used: number) =>
  new AppError('DAILY_LIMIT_EXCEEDED', `Today's ceiling of ${count(limits.ceiling.limit)} recipients is reached (${count(used)} today; ${limits.ceiling.reason}); it resets at ${limits.dayResetsAt.toISOString()}`);

const listRefusal = () =>
  new AppError('LIST_SEND_HELD', `List-shaped sending is held for review: an account reaches at most ${count(LIST_SEND_ALLOWANCE)} recipients in broadcasts and list-shaped batches before it is reviewed`);

/**
 * Decides, in order, which requests fit what is left today, this month and of the list-send
 * allowance. A request that does not fit is refused whole, and a later smaller one may still fit.
 */
export function allot(limits: SendingLimits, used: Used, requests: SendRequest[]): Allotment {
  let day = used.day;
  let month = used.month;
  let list = used.list;
  const refusals = requests.map((request) => {
    const n = request.recipients;
    if (month + n > limits.monthLimit) return monthRefusal(limits, month);
    if (day + n > limits.ceiling.limit) return dayRefusal(limits, day);
    if (request.listShaped && list + n > limits.listLimit) return listRefusal();
    day += n;
    month += n;
    if (request.listShaped) list += n;
    return null;
  });
  return { refusals, recipients: day - used.day, listRecipients: list - used.list };
}

/** What the store statement reserves, checked again against the stored counters under their row lock. */
export interface Reservation {
  organizationId: string;
  day: string;
  month: string;
  recipients: number;
  listRecipients: number;
  dayLimit: number;
  monthLimit: number;
  listLimit: number;
  quota: number;
  overageRateCents: number;
}

export function reservationOf(organizationId: string, limits: SendingLimits, allotment: Allotment): Reservation {
  return {
    organizationId,
    day: limits.day,
    month: limits.month,
    recipients: allotment.recipients,
    listRecipients: allotment.listRecipients,
    dayLimit: limits.ceiling.limit,
    monthLimit: limits.monthLimit,
    listLimit: limits.listLimit,
    quota: limits.quota,
    overageRateCents: limits.plan.overagePer1000EurCents ?? 0,
  };
}
