import { DAY_MS } from '../shared/time';
import type { Plan } from './plans';

/** The daily recipient ceiling's steps; docs/limits.md gives the same table. */
export const CEILING = {
  free: 100,
  pool: 1_000,
  poolMaxDays: 7,
  /** Ceiling by time since leaving the pool: below `untilDays`, `limit`. */
  afterPool: [
    { untilDays: 1, limit: 2_000, label: 'first 24 hours after the new-account pool' },
    { untilDays: 3, limit: 10_000, label: '1 to 3 days after the new-account pool' },
    { untilDays: 7, limit: 50_000, label: '3 to 7 days after the new-account pool' },
  ],
  /** 7+ days: this many times the busiest day of the last BUSIEST_WINDOW_DAYS days. */
  busiestDayMultiple: 2,
} as const;

export interface StandingColumns {
  createdAt: Date;
  paidSince: Date | null;
  poolExitedAt: Date | null;
  busiestRecentDay: number;
  elevatedReason: string | null;
}

export interface DailyCeiling {
  limit: number;
  /** Why this number, in a sentence for people. */
  reason: string;
  tier: 'free' | 'pool' | 'after-pool' | 'usage-based';
  halved: boolean;
  /** When the tier next changes by time alone; null when only usage or rates move it. */
  changesAt: Date | null;
}

/** When the new-account pool ends for a paid organization: leaving by volume, or 7 days after becoming paid. */
export function poolEndsAt(standing: StandingColumns): Date {
  const since = standing.paidSince ?? standing.createdAt;
  const byTime = new Date(since.getTime() + CEILING.poolMaxDays * DAY_MS);
  return standing.poolExitedAt && standing.poolExitedAt < byTime ? standing.poolExitedAt : byTime;
}

function baseCeiling(plan: Plan, standing: StandingColumns, now: Date): Omit<DailyCeiling, 'halved'> {
  if (plan.id === 'free') return { limit: CEILING.free, reason: 'Free plan: 100 recipients a day', tier: 'free', changesAt: null };
  const poolEnd = poolEndsAt(standing);
  if (now < poolEnd) {
    return {
      limit: CEILING.pool,
      reason: 'New-account pool: 1,000 recipients a day until about 500 delivered messages with low bounce and complaint rates, or 7 days',
      tier: 'pool',
      changesAt: poolEnd,
    };
  }
  const since = now.getTime() - poolEnd.getTime();
  for (const step of CEILING.afterPool) {
    if (since < step.untilDays * DAY_MS) {
      return { limit: step.limit, reason: `${step.limit.toLocaleString('en')} recipients a day: ${step.label}`, tier: 'after-pool', changesAt: new Date(poolEnd.getTime() + step.untilDays * DAY_MS) };
    }
  }
  const spread = Math.ceil(plan.monthlyEmails / 30);
  const busiest = CEILING.busiestDayMultiple * standing.busiestRecentDay;
  const limit = Math.max(spread, busiest, plan.contacts);
  const why = limit === busiest && busiest > spread && busiest > plan.contacts
    ? `twice the busiest day of the last two weeks (${standing.busiestRecentDay.toLocaleString('en')})`
    : limit === spread && spread >= plan.contacts
      ? 'the monthly quota spread over 30 days'
      : "the plan's contact cap";
  return { limit, reason: `Usage-based: ${why}`, tier: 'usage-based', changesAt: null };
}

/**
 * Today's ceiling in recipients. Pure: the plan, the organization's standing (evaluated hourly by
 * standing.ts) and the time. An elevated bounce or complaint rate halves it until the rate recovers.
 */
export function dailyCeiling(plan: Plan, standing: StandingColumns, now: Date): DailyCeiling {
  const base = baseCeiling(plan, standing, now);
  if (!standing.elevatedReason) return { ...base, halved: false };
  return { ...base, limit: Math.floor(base.limit / 2), reason: `${base.reason}; halved while ${standing.elevatedReason}`, halved: true };
}
