import { and, eq, gt, gte, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { overageMeterReports, stripeAccounts, usageCounters } from '@/db/schema';
import type { Deps } from '../../deps';
import { billingPeriodOf } from '../plans/billing-period';
import { LIVE_STATUSES } from './accounts';
import { stripeOf } from './stripe';
import type { Stripe } from './stripe-client';

type MeterDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'log'>;

/** Stripe takes a meter event dated at most 35 days back; a day less leaves room for clocks that differ. */
const OLDEST_EVENT_DAYS = 34;

/**
 * How long after midnight a month's partial thousand waits: a send that reserved its recipients
 * at 23:59:59.999 commits a moment later. Stripe waits an hour before it closes the invoice.
 */
export const MONTH_SETTLE_MS = 5 * 60_000;

/** The meter event's identifier: the same thousand of the same month is the same event, however often it is sent. */
export const overageIdentifier = (organizationId: string, month: string, thousand: number): string => `overage:${organizationId}:${month.slice(0, 7)}:${thousand}`;

/** What a month's overage counters and the ledger say. */
interface MonthOverage {
  organizationId: string;
  customerId: string;
  /** The month's first day, YYYY-MM-01. */
  month: string;
  recipients: number;
  millicents: number;
  /** The highest thousand reported, and the millicents reported so far. */
  reported: number;
  reportedMillicents: number;
}

/** One meter event still to send. */
interface DueThousand {
  thousand: number;
  millicents: number;
}

/**
 * The events a month still owes Stripe. Each full thousand is reported as it fills, worth the
 * month's metered cost up to it less what was reported before (the cost was counted at the rate in
 * force at each send; a month that changed plan spreads its cost evenly over its recipients,
 * rounded down, so what is reported never runs ahead of what was metered). Once the month is
 * over, one more event carries what is left: the partial thousand, and the rounding, so the
 * month's events add up to exactly its metered cost.
 */
export function dueThousands(month: Pick<MonthOverage, 'recipients' | 'millicents' | 'reported' | 'reportedMillicents'>, closed: boolean): DueThousand[] {
  const full = Math.floor(month.recipients / 1000);
  const due: DueThousand[] = [];
  let reportedMillicents = month.reportedMillicents;
  for (let thousand = month.reported + 1; thousand <= full; thousand++) {
    const millicents = Math.max(0, Math.floor((month.millicents * thousand * 1000) / month.recipients) - reportedMillicents);
    due.push({ thousand, millicents });
    reportedMillicents += millicents;
  }
  const rest = month.millicents - reportedMillicents;
  if (closed && rest > 0) due.push({ thousand: Math.max(full, month.reported) + 1, millicents: rest });
  return due;
}

/** The two months a counter row holds: the one it counts, and the one its last rollover moved out. */
const COUNTED_MONTHS = [
  { month: usageCounters.month, recipients: usageCounters.monthOverageRecipients, millicents: usageCounters.monthOverageMillicents },
  { month: usageCounters.previousMonth, recipients: usageCounters.previousMonthOverageRecipients, millicents: usageCounters.previousMonthOverageMillicents },
] as const;

/**
 * One of the two months of the counter rows of organizations with a live subscription, with what
 * the ledger holds of it, kept only when `dueThousands` owes something for it: a full thousand
 * past the highest reported, or (once the month is closed) metered millicents not reported yet.
 * A month reported in full is left out here, not read and dropped.
 */
function monthsOwing(deps: MeterDeps, counted: (typeof COUNTED_MONTHS)[number], oldest: string, closedBefore: string) {
  // The month's ledger, summed: an aggregate without GROUP BY is one row, so a month with nothing reported gets 0 and 0.
  const ledger = deps.db
    .select({
      reported: sql<number>`coalesce(max(${overageMeterReports.thousand}), 0)`.mapWith(Number).as('reported'),
      reportedMillicents: sql<number>`coalesce(sum(${overageMeterReports.valueMillicents}), 0)`.mapWith(Number).as('reported_millicents'),
    })
    .from(overageMeterReports)
    .where(and(eq(overageMeterReports.organizationId, usageCounters.organizationId), eq(overageMeterReports.month, counted.month)))
    .as('ledger');
  return deps.db
    .select({
      organizationId: usageCounters.organizationId,
      customerId: stripeAccounts.customerId,
      month: counted.month,
      recipients: counted.recipients,
      millicents: counted.millicents,
      reported: ledger.reported,
      reportedMillicents: ledger.reportedMillicents,
    })
    .from(usageCounters)
    .innerJoin(stripeAccounts, eq(stripeAccounts.organizationId, usageCounters.organizationId))
    .innerJoinLateral(ledger, sql`true`)
    .where(
      and(
        isNotNull(stripeAccounts.subscriptionId),
        inArray(stripeAccounts.subscriptionStatus, [...LIVE_STATUSES]),
        gt(counted.recipients, 0),
        gte(counted.month, oldest),
        or(gt(sql`${counted.recipients} / 1000`, ledger.reported), and(lt(counted.month, closedBefore), gt(counted.millicents, ledger.reportedMillicents))),
      ),
    );
}

/**
 * This month's and the previous month's overage of organizations with a live subscription, both
 * still on the counter row (a month the row has not rolled past yet is in its `month_*` columns),
 * with what the ledger holds of each: only the months that still owe Stripe an event.
 */
async function overageMonths(deps: MeterDeps, now: Date): Promise<MonthOverage[]> {
  const oldest = billingPeriodOf(new Date(now.getTime() - OLDEST_EVENT_DAYS * 86_400_000)).start.toISOString().slice(0, 10);
  // A month is closed once its end is MONTH_SETTLE_MS past: it is before the month of `now` less that.
  const closedBefore = billingPeriodOf(new Date(now.getTime() - MONTH_SETTLE_MS)).start.toISOString().slice(0, 10);
  const [current, previous] = COUNTED_MONTHS.map((counted) => monthsOwing(deps, counted, oldest, closedBefore));
  const rows = await unionAll(current!, previous!);
  // The previous month's column is null until a first rollover; the filter on it left those rows out.
  return rows.map((row) => ({ ...row, month: row.month! }));
}

/** Stripe already holds an event with this identifier: the thousand was reported by an earlier try. */
function isDuplicateIdentifier(error: unknown): boolean {
  const stripeError = error as { type?: string; code?: string; message?: string };
  return stripeError?.type === 'StripeInvalidRequestError' && (stripeError.code === 'resource_already_exists' || /already exists/i.test(stripeError.message ?? ''));
}

/**
 * Reports one month's due thousands, in order, each as one meter event dated inside that month (a
 * past month's on its last second, so Stripe bills it on that month's invoice). A thousand is
 * recorded only once Stripe took it; a failure stops this month there, for the next sweep.
 */
async function reportMonth(deps: MeterDeps, stripe: Stripe, month: MonthOverage, now: Date): Promise<number> {
  const { meterEventName } = deps.config.stripe!.overage;
  const monthEnd = billingPeriodOf(new Date(`${month.month}T00:00:00.000Z`)).end.getTime();
  const timestamp = Math.min(Math.floor(now.getTime() / 1000), Math.floor(monthEnd / 1000) - 1);
  let reported = 0;
  for (const due of dueThousands(month, now.getTime() >= monthEnd + MONTH_SETTLE_MS)) {
    const identifier = overageIdentifier(month.organizationId, month.month, due.thousand);
    try {
      await stripe.billing.meterEvents.create({ event_name: meterEventName, identifier, timestamp, payload: { stripe_customer_id: month.customerId, value: String(due.millicents) } });
    } catch (error) {
      if (!isDuplicateIdentifier(error)) {
        deps.log.warn({ err: error, organizationId: month.organizationId, month: month.month, thousand: due.thousand }, 'Stripe did not take an overage meter event; the next sweep tries again');
        break;
      }
    }
    await deps.db
      .insert(overageMeterReports)
      .values({ organizationId: month.organizationId, month: month.month, thousand: due.thousand, valueMillicents: due.millicents, identifier, reportedAt: now })
      .onConflictDoNothing();
    reported += 1;
  }
  return reported;
}

/**
 * The due work `overage-meter` (docs/billing.md): metered overage reaches Stripe as meter events on
 * the organization's customer, one per 1,000 recipients past the quota, for the period's invoice.
 * Exactly once across retries, restarts and two sweeps at once: the identifier names the
 * organization, month and thousand (Stripe refuses a repeat, which counts as reported), and the
 * ledger row is written after Stripe took it. Answers the events reported.
 */
export async function reportOverage(deps: MeterDeps): Promise<number> {
  const stripe = stripeOf(deps);
  if (!stripe) return 0;
  const now = deps.clock.now();
  let reported = 0;
  for (const month of await overageMonths(deps, now)) reported += await reportMonth(deps, stripe, month, now);
  return reported;
}
