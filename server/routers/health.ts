import { z } from 'zod';
import { checkReadiness } from '../services/health/readiness';
import { publicProcedure, router } from '../trpc/init';

export const healthRouter = router({
  live: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/health', operationId: 'getHealth', tags: ['System'], summary: 'Liveness: the API is serving', protect: false } })
    .input(z.object({}))
    .output(z.object({ status: z.literal('ok') }))
    .query(() => ({ status: 'ok' as const })),

  ready: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/health/ready', operationId: 'getReadiness', tags: ['System'], summary: 'Readiness: the backing data stores answer', protect: false } })
    .input(z.object({}))
    .output(z.object({ status: z.literal('ready'), database: z.literal('ok') }))
    .query(({ ctx }) => checkReadiness(ctx.deps)),
});
