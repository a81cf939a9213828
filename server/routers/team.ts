import { z } from 'zod';
import {
  acceptInvitationAsPerson,
  changeRole,
  describeInvitation,
  invite,
  listInvitations,
  listMembers,
  removeMember,
  resendInvitation,
  revokeInvitation,
  transferOwnership,
} from '../services/members';
import { router, publicProcedure } from '../trpc/init';
import { personProcedure } from '../trpc/procedures';
import { ASSIGNABLE_ROLES } from '../vocabulary/roles';

const userId = z.string().min(1).max(100);
const invitationId = z.uuid();
const token = z.string().max(100);

/** For the dashboard only (no REST path, refused to API keys): the organization's members and invitations. */
export const teamRouter = router({
  members: personProcedure.input(z.object({}).optional()).query(({ ctx }) => listMembers(ctx.deps, ctx.principal)),
  invitations: personProcedure.input(z.object({}).optional()).query(({ ctx }) => listInvitations(ctx.deps, ctx.principal)),
  invite: personProcedure
    .input(z.object({ email: z.email({ message: 'must be an email address' }).max(254), role: z.enum(ASSIGNABLE_ROLES) }))
    .mutation(({ ctx, input }) => invite(ctx.deps, ctx.principal, input)),
  resendInvitation: personProcedure.input(z.object({ id: invitationId })).mutation(({ ctx, input }) => resendInvitation(ctx.deps, ctx.principal, input.id)),
  revokeInvitation: personProcedure.input(z.object({ id: invitationId })).mutation(async ({ ctx, input }) => {
    await revokeInvitation(ctx.deps, ctx.principal, input.id);
    return { revoked: true };
  }),
  changeRole: personProcedure
    .input(z.object({ userId, role: z.enum(ASSIGNABLE_ROLES) }))
    .mutation(({ ctx, input }) => changeRole(ctx.deps, ctx.principal, input.userId, input.role)),
  remove: personProcedure.input(z.object({ userId })).mutation(async ({ ctx, input }) => {
    await removeMember(ctx.deps, ctx.principal, input.userId);
    return { removed: true };
  }),
  transferOwnership: personProcedure.input(z.object({ userId })).mutation(({ ctx, input }) => transferOwnership(ctx.deps, ctx.principal, input.userId)),
  /** The invitation page's question, before anyone signs in: what the link is now. */
  describeInvitation: publicProcedure.input(z.object({ token })).query(({ ctx, input }) => describeInvitation(ctx.deps, input.token)),
  /** The invitation page's accept, signed in with the invited address: answers the organization joined. */
  acceptInvitation: personProcedure.input(z.object({ token })).mutation(({ ctx, input }) => acceptInvitationAsPerson(ctx.deps, ctx.principal, input.token)),
});
