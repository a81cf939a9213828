import { z } from 'zod';
import { forbidden } from '../errors';
import { listSessions, signOutOtherSessions, signOutSession, type SessionView } from '../services/accounts/sessions';
import type { Context } from '../trpc/context';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { isoDate } from './shared';

const session = z.object({
  id: z.string(),
  device: z.string(),
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable(),
  signedInAt: isoDate,
  lastSeenAt: isoDate,
  expiresAt: isoDate,
  current: z.boolean(),
});

const toOutput = (view: SessionView) => ({
  ...view,
  signedInAt: view.signedInAt.toISOString(),
  lastSeenAt: view.lastSeenAt.toISOString(),
  expiresAt: view.expiresAt.toISOString(),
});

/** A person's own account is theirs, not an organization's: no API key reaches it. */
const dashboardOnly = (ctx: Context) => {
  if (ctx.channel !== 'dashboard') throw forbidden('Your sessions are managed in the dashboard, signed in');
};

/**
 * For the dashboard only (no REST path, and refused to API keys on /api/trpc too): the signed-in
 * person's sessions, and signing them out. The password is changed through better-auth's own
 * /api/auth/change-password (server/auth/account-hooks.ts).
 */
export const accountRouter = router({
  sessions: orgProcedure
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(session) }))
    .query(async ({ ctx }) => {
      dashboardOnly(ctx);
      return { data: (await listSessions(ctx.deps, ctx.principal)).map(toOutput) };
    }),
  signOutSession: orgProcedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .output(z.object({ id: z.string() }))
    .mutation(async ({ ctx, input }) => {
      dashboardOnly(ctx);
      return signOutSession(ctx.deps, ctx.principal, input.id);
    }),
  signOutOtherSessions: orgProcedure
    .input(z.object({}).optional())
    .output(z.object({ signedOut: z.number().int() }))
    .mutation(async ({ ctx }) => {
      dashboardOnly(ctx);
      return signOutOtherSessions(ctx.deps, ctx.principal);
    }),
});
