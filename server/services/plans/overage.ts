import { PLANS, type Plan } from './plans';

const VOLUMES = Object.values(PLANS).sort((a, b) => a.monthlyEmails - b.monthlyEmails);

/** The next volume up, or null for the top one. */
export const nextVolume = (plan: Plan): Plan | null => VOLUMES.find((other) => other.monthlyEmails > plan.monthlyEmails) ?? null;

/**
 * What metered overage may cost in a month before sending stops: the price difference to the next
 * volume up (at that point the bigger volume is the cheaper choice). The top volume has none, so
 * its stop is its own monthly price: past twice the spend, the plan is quoted individually.
 */
export function overageBudgetCents(plan: Plan): number {
  const next = nextVolume(plan);
  return next ? next.priceEurCents - plan.priceEurCents : plan.priceEurCents;
}

/**
 * Recipients a month may go past the quota with overage on: the largest number whose metered cost
 * (rate per 1,000, pro rata) stays below the budget; the next one would make it equal.
 */
export function overageHeadroom(plan: Plan): number {
  if (plan.overagePer1000EurCents === null) return 0;
  return Math.ceil((overageBudgetCents(plan) * 1000) / plan.overagePer1000EurCents) - 1;
}

/** Millicents are thousandths of a cent: a rate in cents per 1,000 times a count of recipients. */
export const millicentsToCents = (millicents: number): number => millicents / 1000;
