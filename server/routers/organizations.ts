import { z } from 'zod';
import { describeOrganization } from '../services/organizations/organizations';
import { resendConfirmationLink } from '../services/organizations/owner-confirmation';
import { changePlanAsOwner } from '../services/plans/changes';
import { PLANS, planOf, type PlanId } from '../services/plans/plans';
import { openPlanRequest, withdrawPlanRequest, type PlanRequest } from '../services/plans/requests';
import { router } from '../trpc/init';
import { orgProcedure, personProcedure } from '../trpc/procedures';
import { membershipsOfUser } from '../services/members';

const planIds = Object.keys(PLANS) as [PlanId, ...PlanId[]];

const planRequestView = (request: PlanRequest) => {
  const plan = planOf(request.plan);
  return { id: request.id, plan: plan.id, label: plan.label, monthlyEmails: plan.monthlyEmails, from: request.fromPlan, requestedBy: request.requestedByEmail, requestedAt: request.requestedAt.toISOString() };
};

/** For the dashboard only (no REST path): who the signed-in person acts for, and its plan. */
export const organizationRouter = router({
  current: orgProcedure
    .input(z.object({}).optional())
    .query(async ({ ctx }) => ({ ...(await describeOrganization(ctx.deps, ctx.principal.organizationId)), role: ctx.principal.role ?? null })),
  /** The switcher: every organization the person belongs to, and their role in each. */
  memberships: personProcedure
    .input(z.object({}).optional())
    .query(async ({ ctx }) =>
      (await membershipsOfUser(ctx.deps, ctx.userId)).map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role, active: m.organization.id === ctx.principal.organizationId })),
    ),
  /** The banner's "Resend the link": a new link to confirm the owner's address (throttled: RATE_LIMITED). */
  resendConfirmation: orgProcedure
    .input(z.object({}).optional())
    .mutation(({ ctx }) => resendConfirmationLink(ctx.deps, ctx.principal)),
  /**
   * The billing page's plan change: down at the end of the month; up is a request for the operator
   * (no limit rises before it is paid for: docs/billing.md).
   */
  changePlan: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({ plan: z.enum(planIds) }))
    .mutation(async ({ ctx, input }) => {
      const { change, request } = await changePlanAsOwner(ctx.deps, ctx.principal, input.plan);
      return {
        organization: await describeOrganization(ctx.deps, ctx.principal.organizationId),
        change: change && { ...change, effectiveAt: change.effectiveAt.toISOString() },
        request: request && planRequestView(request),
      };
    }),
  /** The upgrade waiting for the operator, if any. */
  planRequest: orgProcedure
    .input(z.object({}).optional())
    .query(async ({ ctx }) => {
      const open = await openPlanRequest(ctx.deps.db, ctx.principal.organizationId);
      return open && planRequestView(open);
    }),
  /** The billing page's "Withdraw": the customer takes the request back. */
  withdrawPlanRequest: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({}).optional())
    .mutation(async ({ ctx }) => {
      await withdrawPlanRequest(ctx.deps, ctx.principal);
      return { withdrawn: true };
    }),
});
