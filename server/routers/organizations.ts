import { z } from 'zod';
import { describeOrganization } from '../services/organizations/organizations';
import { resendConfirmationLink } from '../services/organizations/owner-confirmation';
import { changePlanAsOwner } from '../services/plans/changes';
import { PLANS, planOf, type PlanId } from '../services/plans/plans';
import { openPlanRequest, withdrawPlanRequest, type PlanRequest } from '../services/plans/requests';
import { paymentStateOf } from '../services/billing/payment-state';
import { router } from '../trpc/init';
import { orgProcedure, personProcedure } from '../trpc/procedures';
import { membershipsOfUser } from '../services/members';
import { renameOrganization, ORGANIZATION_NAME_MAX } from '../services/organizations/name';
import { describeNotificationAddress, requestNotificationAddress, resendNotificationLink, resetNotificationAddress } from '../services/organizations/notification-address';
import { leaveOrganization } from '../services/organizations/leave';
import { cancelDeletion, deletionExport, requestDeletion } from '../services/organizations/deletion';

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
   * The billing page's plan change: down at the end of the month; up is a Stripe Checkout URL to
   * send the person to, a subscription update Stripe collects, or (without Stripe) a request for
   * the operator. No limit rises before it is paid for (docs/billing.md).
   */
  changePlan: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({ plan: z.enum(planIds) }))
    .mutation(async ({ ctx, input }) => {
      const { change, request, payment } = await changePlanAsOwner(ctx.deps, ctx.principal, input.plan);
      return {
        organization: await describeOrganization(ctx.deps, ctx.principal.organizationId),
        change: change && { ...change, effectiveAt: change.effectiveAt.toISOString() },
        request: request && planRequestView(request),
        payment,
      };
    }),

  // The settings page (docs/organization-settings.md): people only, never API keys.
  rename: personProcedure
    .input(z.object({ name: z.string().max(ORGANIZATION_NAME_MAX * 4) }))
    .mutation(({ ctx, input }) => renameOrganization(ctx.deps, ctx.principal, input.name)),
  /** Where the service's own mail goes, and an address waiting for its link. */
  notificationAddress: personProcedure.input(z.object({}).optional()).query(({ ctx }) => describeNotificationAddress(ctx.deps, ctx.principal)),
  /** Mails a confirmation link to the address; nothing changes until it is used. The owner's address is taken back at once. */
  setNotificationAddress: personProcedure
    .input(z.object({ email: z.string().max(254) }))
    .mutation(({ ctx, input }) => requestNotificationAddress(ctx.deps, ctx.principal, input.email)),
  resendNotificationLink: personProcedure.input(z.object({}).optional()).mutation(({ ctx }) => resendNotificationLink(ctx.deps, ctx.principal)),
  resetNotificationAddress: personProcedure.input(z.object({}).optional()).mutation(({ ctx }) => resetNotificationAddress(ctx.deps, ctx.principal)),
  /** The person leaves the organization they act for; their next request acts for another of theirs. */
  leave: personProcedure.input(z.object({}).optional()).mutation(async ({ ctx }) => {
    await leaveOrganization(ctx.deps, ctx.principal);
    return { left: true };
  }),
  /** The owner, typing the organization's name: keys and sending stop, an export is made, and it is erased after the grace period. */
  requestDeletion: personProcedure
    .input(z.object({ confirmName: z.string().max(ORGANIZATION_NAME_MAX * 4) }))
    .mutation(({ ctx, input }) => requestDeletion(ctx.deps, ctx.principal, input.confirmName)),
  cancelDeletion: personProcedure.input(z.object({}).optional()).mutation(async ({ ctx }) => {
    await cancelDeletion(ctx.deps, ctx.principal);
    return { cancelled: true };
  }),
  /** The export made when deletion was asked for, as a JSON document to save. */
  deletionExport: personProcedure.input(z.object({}).optional()).query(({ ctx }) => deletionExport(ctx.deps, ctx.principal)),
  /** The upgrade waiting for the operator, if any. */
  planRequest: orgProcedure
    .input(z.object({}).optional())
    .query(async ({ ctx }) => {
      const open = await openPlanRequest(ctx.deps.db, ctx.principal.organizationId);
      return open && planRequestView(open);
    }),
  /** With Stripe: a payment still clearing (SEPA) and the subscription's state, for the billing page. */
  paymentState: orgProcedure.input(z.object({}).optional()).query(({ ctx }) => paymentStateOf(ctx.deps, ctx.principal.organizationId)),
  /** The billing page's "Withdraw": the customer takes the request back. */
  withdrawPlanRequest: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({}).optional())
    .mutation(async ({ ctx }) => {
      await withdrawPlanRequest(ctx.deps, ctx.principal);
      return { withdrawn: true };
    }),
});
