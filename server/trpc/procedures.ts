import { AppError, forbidden } from '../errors';
import type { RateLimitResult } from '../services/plans/rate-limits';
import { RATE_LIMIT_WINDOW_MS } from '../services/plans/plans';
import type { Principal } from '../services/shared/principal';
import { twoFactorRequired } from '../services/two-factor';
import { DASHBOARD_TEST_MODE_REFUSAL, TEST_KEY_REFUSAL } from '../vocabulary/test-mode';
import type { Context } from './context';
import { middleware, publicProcedure, type AccessMeta } from './init';

function applyRateLimit(ctx: Context, result: RateLimitResult): void {
  const resetSeconds = String(Math.ceil(result.resetMs / 1000));
  const headers = {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': resetSeconds,
    'RateLimit-Policy': `${result.limit};w=${RATE_LIMIT_WINDOW_MS / 1000}`,
  };
  for (const [name, value] of Object.entries(headers)) ctx.setHeader(name, value);
  if (!result.allowed) {
    ctx.deps.metrics.rateLimited('api');
    throw new AppError('RATE_LIMITED', `More than ${result.limit} requests in ${RATE_LIMIT_WINDOW_MS / 1000} seconds; retry after ${resetSeconds} s`, {
      ...headers,
      'Retry-After': String(Math.max(1, Number(resetSeconds))),
    });
  }
}

/** Authenticated, rate limited (API keys), and held to the key's permission and mode. Plain routes call it too. */
export async function authorize(ctx: Context, meta: AccessMeta | undefined): Promise<Principal> {
  const admission = await ctx.authenticate();
  if (!admission) {
    throw new AppError('UNAUTHORIZED', ctx.channel === 'dashboard' ? 'Sign in to continue' : 'Missing, malformed or revoked API key');
  }
  const { principal } = admission;
  if (admission.rateLimit) applyRateLimit(ctx, admission.rateLimit);
  // A person held at the two-factor set-up step: nothing else until it is done (API keys never are).
  if (principal.twoFactorSetUpPending && !meta?.beforeTwoFactor) throw twoFactorRequired();
  if (principal.permission === 'sending_access' && meta?.access !== 'sending') {
    throw forbidden('This key has sending_access: it may only send email');
  }
  if (principal.mode === 'test' && meta?.liveWrite) {
    throw forbidden(ctx.channel === 'dashboard' ? DASHBOARD_TEST_MODE_REFUSAL : TEST_KEY_REFUSAL);
  }
  return principal;
}

export const orgProcedure = publicProcedure.use(
  middleware(async ({ ctx, meta, next }) => next({ ctx: { ...ctx, principal: await authorize(ctx, meta) } })),
);
