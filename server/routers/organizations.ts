import { z } from 'zod';
import { describeOrganization } from '../services/organizations/organizations';
import { resendConfirmationLink } from '../services/organizations/owner-confirmation';
import { changePlanAsOwner } from '../services/plans/changes';
import { PLANS, type PlanId } from '../services/plans/plans';
import { router } from '../trpc/init';
import { orgProcedure, personProcedure } from '../trpc/procedures';
import { membershipsOfUser } from '../services/members';

const planIds = Object.keys(PLANS) as [PlanId, ...PlanId[]];

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
  /** The billing page's plan change: up at once (with the prorated charge), down at the end of the month. */
  changePlan: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({ plan: z.enum(planIds) }))
    .mutation(async ({ ctx, input }) => {
      const { change } = await changePlanAsOwner(ctx.deps, ctx.principal, input.plan);
      return {
        organization: await describeOrganization(ctx.deps, ctx.principal.organizationId),
        change: { ...change, effectiveAt: change.effectiveAt.toISOString() },
      };
    }),
});
