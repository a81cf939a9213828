import { z } from 'zod';
import { forbidden } from '../errors';
import { setOverage } from '../services/organizations/organizations';
import { PLANS, type PlanId } from '../services/plans/plans';
import { quotePlanChange } from '../services/plans/quote';
import { describeUsage } from '../services/plans/usage';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { byPrincipal } from '../services/audit/record';
import { isoDate, jsonBoolean } from './shared';

const planIds = Object.keys(PLANS) as [PlanId, ...PlanId[]];

const cap = z.object({ used: z.number().int(), limit: z.number().int().nullable().describe('null: unlimited') });

const usage = z
  .object({
    status: z.string().describe('active, restricted, suspended or paused'),
    plan: z.object({
      id: z.enum(Object.keys(PLANS) as [string, ...string[]]),
      label: z.string(),
      monthlyEmails: z.number().int(),
      priceEurCents: z.number().int(),
      overagePer1000EurCents: z.number().int().nullable().describe('null on Free: no metered overage'),
    }),
    pendingPlanChange: z
      .object({ plan: z.string(), label: z.string(), effectiveAt: isoDate })
      .nullable()
      .describe('A downgrade waiting for the end of the billing period (the UTC month)'),
    period: z.object({ start: isoDate, end: isoDate }).describe('The billing period and quota month: the UTC calendar month'),
    month: z.object({
      emails: z.number().int().describe('Live recipients accepted this month: an email to three recipients counts three'),
      quota: z.number().int(),
      remaining: z.number().int().describe('Left before sending stops: to the quota, or with overage on to its stop'),
      resetsAt: isoDate,
    }),
    overage: z.object({
      enabled: z.boolean(),
      available: z.boolean().describe('false on Free'),
      emails: z.number().int().describe('Recipients metered past the quota this month (billed even if overage is turned off since)'),
      costEurCents: z.number().int().describe('Their cost so far, rounded to the cent'),
      stopsAt: z.number().int().describe('The month count where sending stops: the quota, or quota plus the overage headroom'),
      budgetEurCents: z.number().int().describe('The overage cost where sending stops: the price difference to the next volume up'),
    }),
    today: z.object({
      day: z.string().meta({ format: 'date' }),
      recipients: z.number().int().describe('Live recipients (to + cc + bcc) accepted today, UTC'),
      ceiling: z.number().int(),
      remaining: z.number().int(),
      reason: z.string().describe('Why the ceiling is this number'),
      tier: z.enum(['free', 'pool', 'after-pool', 'usage-based']),
      halved: z.boolean().describe('Halved while the recent bounce or complaint rate is elevated'),
      changesAt: isoDate.nullable().describe('When the ceiling next changes by time alone; null when only usage and rates move it'),
      resetsAt: isoDate,
    }),
    review: z.object({
      reviewed: z.boolean(),
      allowance: z.number().int().describe('Recipients reachable in broadcasts and list-shaped batches before review'),
      used: z.number().int(),
      remaining: z.number().int().nullable().describe('null once reviewed'),
    }),
    caps: z.object({
      domains: cap,
      webhookEndpoints: cap,
      contacts: cap,
      apiKeys: cap.describe('Live keys not revoked'),
      enabledAutomations: cap.describe('Automations enabled now'),
      automationRunsThisMonth: cap.describe('Automation runs started this calendar month (UTC)'),
    }),
    days: z
      .array(
        z.object({
          day: z.string().meta({ format: 'date' }),
          recipients: z.number().int(),
          sent: z.number().int(),
          delivered: z.number().int(),
          bounced: z.number().int(),
          complained: z.number().int(),
        }),
      )
      .describe('This month by UTC day, oldest first: recipients accepted, and the messages accepted that day by outcome'),
  })
  .meta({ id: 'Usage' });

export const usageRouter = router({
  current: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/usage',
        operationId: 'getUsage',
        tags: ['Usage'],
        summary: "The plan, this month's and today's sending against their limits, the review allowance and the caps",
        description: 'Live sending only: test-mode email is never counted. Needs a full_access key.',
      },
    })
    .input(z.object({}).optional())
    .output(usage)
    .query(({ ctx }) => describeUsage(ctx.deps, ctx.principal.organizationId)),
  /** For the dashboard's billing page only: a billing decision is a person's, not an API key's. */
  setOverage: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({ enabled: jsonBoolean() }))
    .mutation(async ({ ctx, input }) => {
      if (ctx.channel !== 'dashboard') throw forbidden('Metered overage is switched in the dashboard');
      await setOverage(ctx.deps, ctx.principal.organizationId, input.enabled, byPrincipal(ctx.principal));
      return { enabled: input.enabled };
    }),
  /**
   * For the billing page's confirmation: what `organization.changePlan` would do now (kind, when,
   * and an upgrade's prorated charge), changing nothing.
   */
  quotePlanChange: orgProcedure.input(z.object({ plan: z.enum(planIds) })).query(async ({ ctx, input }) => {
    const quote = await quotePlanChange(ctx.deps, ctx.principal.organizationId, input.plan);
    return { ...quote, effectiveAt: quote.effectiveAt.toISOString() };
  }),
});
