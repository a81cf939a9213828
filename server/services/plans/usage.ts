import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { apiKeys, automationRunMonths, automations, domains, emails, organizations, usageCounters, usageDays, webhooks } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { billingPeriodOf } from './billing-period';
import { utcDay } from './calendar';
import { pendingPlanAhead } from './effective';
import { overageBudgetCents } from './overage';
import { LIST_SEND_ALLOWANCE, NO_USAGE, sendingLimits, usedNow, type SendingAccount } from './sending-limits';
import { refreshStanding } from './standing';

interface Cap {
  used: number;
  /** null = unlimited */
  limit: number | null;
}

export interface UsageDay {
  day: string;
  /** Live recipients accepted that day (what the ceiling and quota count). */
  recipients: number;
  /** Live messages by outcome, by the day they were accepted. */
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
}

async function caps(deps: Pick<Deps, 'db'>, organizationId: string, month: string) {
  const [row] = await deps.db
    .select({
      domains: sql<number>`(select count(*)::int from ${domains} where ${domains.organizationId} = ${organizationId})`,
      webhooks: sql<number>`(select count(*)::int from ${webhooks} where ${webhooks.organizationId} = ${organizationId})`,
      contacts: sql<number>`(select ${organizations.contactCount} from ${organizations} where ${organizations.id} = ${organizationId})`,
      apiKeys: sql<number>`(select count(*)::int from ${apiKeys} where ${apiKeys.organizationId} = ${organizationId} and ${apiKeys.mode} = 'live' and ${isNull(apiKeys.revokedAt)})`,
      enabledAutomations: sql<number>`(select count(*)::int from ${automations} where ${automations.organizationId} = ${organizationId} and ${automations.status} = 'enabled' and ${isNull(automations.deletedAt)})`,
      automationRuns: sql<number>`coalesce((select ${automationRunMonths.started} from ${automationRunMonths} where ${automationRunMonths.organizationId} = ${organizationId} and ${automationRunMonths.month} = ${month}), 0)`,
    })
    .from(sql`(select 1) as one`);
  return row!;
}

/** The month so far by day (past days as archived): the counters' history joined with the outcomes of the messages accepted each day. */
async function monthByDay(deps: Pick<Deps, 'db'>, organizationId: string, monthStart: Date, monthEnd: Date): Promise<UsageDay[]> {
  const [history, outcomes] = await Promise.all([
    deps.db
      .select({ day: usageDays.day, recipients: usageDays.recipients })
      .from(usageDays)
      .where(and(eq(usageDays.organizationId, organizationId), gte(usageDays.day, utcDay(monthStart)), lt(usageDays.day, utcDay(monthEnd)))),
    deps.db
      .select({
        day: sql<string>`to_char(${emails.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        sent: sql<number>`count(*) filter (where ${emails.status} in ('sent', 'delivered', 'bounced', 'complained'))::int`,
        delivered: sql<number>`count(*) filter (where ${emails.status} in ('delivered', 'complained'))::int`,
        bounced: sql<number>`count(*) filter (where ${emails.status} = 'bounced')::int`,
        complained: sql<number>`count(*) filter (where ${emails.status} = 'complained')::int`,
      })
      .from(emails)
      .where(and(eq(emails.organizationId, organizationId), eq(emails.mode, 'live'), gte(emails.createdAt, monthStart), lt(emails.createdAt, monthEnd)))
      .groupBy(sql`1`),
  ]);
  const days = new Map<string, UsageDay>();
  const dayOf = (day: string) => days.get(day) ?? days.set(day, { day, recipients: 0, sent: 0, delivered: 0, bounced: 0, complained: 0 }).get(day)!;
  for (const row of history) dayOf(row.day).recipients = row.recipients;
  for (const row of outcomes) Object.assign(dayOf(row.day), { sent: row.sent, delivered: row.delivered, bounced: row.bounced, complained: row.complained });
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

function mergeToday(days: UsageDay[], today: string, recipients: number): UsageDay[] {
  const found = days.find((day) => day.day === today);
  if (found) return days.map((day) => (day === found ? { ...day, recipients } : day));
  return [...days, { day: today, recipients, sent: 0, delivered: 0, bounced: 0, complained: 0 }].sort((a, b) => a.day.localeCompare(b.day));
}

/** GET /usage and the billing page: the plan, this month and today against their limits, the review allowance and the caps. */
export async function describeUsage(deps: Pick<Deps, 'db' | 'clock'>, organizationId: string) {
  const [organization] = await deps.db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw notFound('Organization');
  const account: SendingAccount = { ...organization, ...(await refreshStanding(deps, organizationId, organization)) };
  const now = deps.clock.now();
  const limits = sendingLimits(account, 'transactional', now);
  const { start: monthStart, end: monthEnd } = billingPeriodOf(now);
  const [[stored], used, history] = await Promise.all([
    deps.db.select().from(usageCounters).where(eq(usageCounters.organizationId, organizationId)),
    caps(deps, organizationId, now.toISOString().slice(0, 7)),
    monthByDay(deps, organizationId, monthStart, monthEnd),
  ]);
  const counters = stored ?? { ...NO_USAGE, monthOverageRecipients: 0, monthOverageMillicents: 0 };
  const count = usedNow(counters, limits);
  const overage = counters.month === limits.month ? { recipients: counters.monthOverageRecipients, millicents: counters.monthOverageMillicents } : { recipients: 0, millicents: 0 };
  // Past days come archived from usage_days; today is the live counter.
  const days = count.day > 0 ? mergeToday(history, limits.day, count.day) : history;
  const { plan } = limits;
  const cap = (usedCount: number, limit: number | null): Cap => ({ used: usedCount, limit });
  const pending = pendingPlanAhead(organization, now);
  return {
    status: organization.status,
    plan: { id: plan.id, label: plan.label, monthlyEmails: plan.monthlyEmails, priceEurCents: plan.priceEurCents, overagePer1000EurCents: plan.overagePer1000EurCents },
    pendingPlanChange: pending ? { plan: pending.plan.id, label: pending.plan.label, effectiveAt: pending.at.toISOString() } : null,
    period: { start: monthStart.toISOString(), end: monthEnd.toISOString() },
    month: {
      emails: count.month,
      quota: limits.quota,
      remaining: Math.max(0, limits.monthLimit - count.month),
      resetsAt: monthEnd.toISOString(),
    },
    overage: {
      enabled: organization.overageEnabled,
      available: plan.overagePer1000EurCents !== null,
      emails: overage.recipients,
      costEurCents: Math.round(Number(overage.millicents) / 1000),
      stopsAt: limits.quota + (limits.overage ? limits.monthLimit - limits.quota : 0),
      budgetEurCents: plan.overagePer1000EurCents === null ? 0 : overageBudgetCents(plan),
    },
    today: {
      day: limits.day,
      recipients: count.day,
      ceiling: limits.ceiling.limit,
      remaining: Math.max(0, limits.ceiling.limit - count.day),
      reason: limits.ceiling.reason,
      tier: limits.ceiling.tier,
      halved: limits.ceiling.halved,
      changesAt: limits.ceiling.changesAt?.toISOString() ?? null,
      resetsAt: limits.dayResetsAt.toISOString(),
    },
    review: {
      reviewed: organization.reviewed,
      allowance: LIST_SEND_ALLOWANCE,
      used: count.list,
      remaining: organization.reviewed ? null : Math.max(0, LIST_SEND_ALLOWANCE - count.list),
    },
    caps: {
      domains: cap(used.domains, plan.domains),
      webhookEndpoints: cap(used.webhooks, plan.webhookEndpoints),
      contacts: cap(used.contacts, plan.contacts),
      apiKeys: cap(used.apiKeys, plan.apiKeys),
      enabledAutomations: cap(used.enabledAutomations, plan.enabledAutomations),
      automationRunsThisMonth: cap(used.automationRuns, plan.automationRunsPerMonth),
    },
    days,
  };
}

export type Usage = Awaited<ReturnType<typeof describeUsage>>;
