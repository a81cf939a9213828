import { and, eq, gt, gte, inArray, isNotNull, max, or, sum } from 'drizzle-orm';
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

/**
 * This month's and the previous month's overage of organizations with a live subscription, both
 * still on the counter row (a month the row has not rolled past yet is in its `month_*` columns),
 * with what the ledger holds of each.
 */
async function overageMonths(deps: MeterDeps, now: Date): Promise<MonthOverage[]> {
  const oldest = billingPeriodOf(new Date(now.getTime() - OLDEST_EVENT_DAYS * 86_400_000)).start.toISOString().slice(0, 10);
  const counters = await deps.db
    .select({
      organizationId: usageCounters.organizationId,
      customerId: stripeAccounts.customerId,
      month: usageCounters.month,
      recipients: usageCounters.monthOverageRecipients,
      millicents: usageCounters.monthOverageMillicents,
      previousMonth: usageCounters.previousMonth,
      previousRecipients: usageCounters.previousMonthOverageRecipients,
      previousMillicents: usageCounters.previousMonthOverageMillicents,
    })
    .from(usageCounters)
    .innerJoin(stripeAccounts, eq(stripeAccounts.organizationId, usageCounters.organizationId))
    .where(
      and(
        isNotNull(stripeAccounts.subscriptionId),
        inArray(stripeAccounts.subscriptionStatus, [...LIVE_STATUSES]),
        or(gt(usageCounters.monthOverageRecipients, 0), gt(usageCounters.previousMonthOverageRecipients, 0)),
      ),
    );
  const months = counters
    .flatMap((row) => [
      { organizationId: row.organizationId, customerId: row.customerId, month: row.month, recipients: row.recipients, millicents: row.millicents },
      ...(row.previousMonth ? [{ organizationId: row.organizationId, customerId: row.customerId, month: row.previousMonth, recipients: row.previousRecipients, millicents: row.previousMillicents }] : []),
    ])
    .filter((month) => month.recipients > 0 && month.month >= oldest);
  if (months.length === 0) return [];
  const ledger = await deps.db
    .select({
      organizationId: overageMeterReports.organizationId,
      month: overageMeterReports.month,
      reported: max(overageMeterReports.thousand),
      reportedMillicents: sum(overageMeterReports.valueMillicents),
    })
    .from(overageMeterReports)
    .where(and(inArray(overageMeterReports.organizationId, [...new Set(months.map((month) => month.organizationId))]), gte(overageMeterReports.month, oldest)))
    .groupBy(overageMeterReports.organizationId, overageMeterReports.month);
  const held = new Map(ledger.map((row) => [`${row.organizationId} ${row.month}`, row]));
  return months.map((month) => {
    const row = held.get(`${month.organizationId} ${month.month}`);
    return { ...month, reported: row?.reported ?? 0, reportedMillicents: Number(row?.reportedMillicents ?? 0) };
  });
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
