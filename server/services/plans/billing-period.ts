import { startOfNextUtcMonth, startOfUtcMonth } from './calendar';

/**
 * The billing period is the UTC calendar month, the same month as the monthly quota: a plan's
 * price is charged per month, the quota resets on the first at 00:00 UTC, and a downgrade applies
 * at that same instant.
 */
export interface BillingPeriod {
  /** The first instant of the month (inclusive). */
  start: Date;
  /** The first instant of the next month (exclusive): when a pending downgrade applies. */
  end: Date;
}

export const billingPeriodOf = (at: Date): BillingPeriod => ({ start: startOfUtcMonth(at), end: startOfNextUtcMonth(at) });
