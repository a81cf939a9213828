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
    .output(
      z.object({
        status: z.literal('ready'),
        database: z.literal('ok'),
        checks: z
          .object({
            database: z.object({ kind: z.enum(['postgres', 'pglite']), latencyMs: z.number().nonnegative().describe('How long the check query took, in milliseconds') }),
            // Counts, so bounded below by 0: an unbounded int() is documented down to -(2^53 - 1), which renderers show as its example.
            migrations: z.object({ applied: z.number().int().nonnegative(), known: z.number().int().nonnegative() }).meta({ description: 'Migrations in the database, and those this build ships' }),
          })
          .meta({ description: 'What was checked; never an address or a secret' }),
        roles: z.array(z.enum(['web', 'smtp', 'worker'])).meta({ description: 'What this process runs' }),
        background: z.enum(['embedded', 'inngest']).meta({ description: 'What runs background work: the embedded runner or Inngest' }),
      })
      .meta({
        examples: [
          {
            status: 'ready',
            database: 'ok',
            checks: { database: { kind: 'postgres', latencyMs: 1.4 }, migrations: { applied: 42, known: 42 } },
            roles: ['web', 'smtp', 'worker'],
            background: 'embedded',
          },
        ],
      }),
    )
    .query(({ ctx }) => checkReadiness(ctx.deps)),
});
