import { z } from 'zod';
import { describeOrganization } from '../services/organizations/organizations';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';

/** For the dashboard only (no REST path): who the signed-in person acts for. */
export const organizationRouter = router({
  current: orgProcedure
    .input(z.object({}).optional())
    .query(({ ctx }) => describeOrganization(ctx.deps, ctx.principal.organizationId)),
});
