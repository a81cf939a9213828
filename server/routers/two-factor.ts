import { z } from 'zod';
import { setTwoFactorRequirement, twoFactorStatus } from '../services/two-factor';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';

/**
 * For the dashboard only (no REST path; people, not API keys): two-factor sign-in's state and the
 * organization's requirement. Turning it on and off for oneself goes through better-auth's
 * twoFactor routes (/api/auth/two-factor/...).
 */
export const twoFactorRouter = router({
  /** Read by the shell before anything else: it decides whether the set-up step replaces the pages. */
  status: orgProcedure
    .meta({ beforeTwoFactor: true })
    .input(z.object({}).optional())
    .query(({ ctx }) => twoFactorStatus(ctx.deps, ctx.principal)),
  /** The owner's switch: every member signs in with a second factor (403 for anyone else). */
  setRequirement: orgProcedure
    .meta({ liveWrite: true })
    .input(z.object({ required: z.boolean() }))
    .mutation(({ ctx, input }) => setTwoFactorRequirement(ctx.deps, ctx.principal, input.required)),
});
