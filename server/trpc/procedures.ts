import { AppError, forbidden } from '../errors';
import type { RateLimitResult } from '../services/plans/rate-limits';
import { RATE_LIMIT_WINDOW_MS } from '../services/plans/plans';
import type { Principal } from '../services/shared/principal';
import { twoFactorRequired } from '../services/two-factor';
import { accessRuleOf, roleMayCall } from '../vocabulary/dashboard-access';
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

/**
 * A person is held to their role: the procedure's rule in server/vocabulary/dashboard-access.ts,
 * none declared meaning refused. API keys have no role and keep their permission checks above.
 */
export function requireRoleFor(principal: Principal, path: string): void {
  const isPerson = principal.keyId === null && principal.userId !== null;
  if (!isPerson) return;
  if (!principal.role || !roleMayCall(principal.role, path)) {
    const rule = accessRuleOf(path);
    const who = Array.isArray(rule) ? ` (${rule.join(', ')} only)` : '';
    throw forbidden(`Your role in this organization (${principal.role ?? 'none'}) does not allow this${who}`);
  }
}

export const orgProcedure = publicProcedure.use(
  middleware(async ({ ctx, meta, path, next }) => {
    const principal = await authorize(ctx, meta);
    requireRoleFor(principal, path);
    return next({ ctx: { ...ctx, principal } });
  }),
);

/** Dashboard-only procedures about people (the team, invitations, the switcher): API keys are refused. */
export const personProcedure = orgProcedure.use(async ({ ctx, next }) => {
  if (ctx.principal.keyId !== null || ctx.principal.userId === null) throw forbidden('This is done by people, signed in to the dashboard');
  return next({ ctx: { ...ctx, userId: ctx.principal.userId } });
});
