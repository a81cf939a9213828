import { betterAuth } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { accounts, sessions, twoFactors, users, verifications } from '@/db/schema';
import type { Deps } from '../deps';
import { errorResponse } from '../http/error-body';
import { requestIdOf } from '../http/request-id';
import { CLIENT_ADDRESS_HEADER, requestOrigin } from '../http/request-origin';
import { newId } from '../ids';
import { recordFailedSignIn, recordSignIn } from '../services/audit/sign-ins';
import { beginAuthAttempt, isCountedAuthRoute, SIGN_IN_ROUTE } from '../services/sign-in/auth-routes';
import type { SignInTicket } from '../services/sign-in/throttle';
import { CHANGE_PASSWORD_ROUTE, passwordResetOptions, recordAccountChange } from './account-hooks';
import { codeStepSignInEmail, sessionIsASignIn, twoFactorPlugins } from './two-factor';
import { landNewUser } from '../services/members';

/** Where a better-auth call came from: the headers the listener stamped on its request (none for a server-side call). */
const originOf = (context: { headers?: Headers } | null) => requestOrigin((name) => context?.headers?.get(name));

function tooManyAttempts(route: string, retryAfterMs: number, requestId: string): Response {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  const what = route === SIGN_IN_ROUTE ? 'sign-in attempts' : 'attempts';
  return errorResponse('RATE_LIMITED', `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, requestId, { 'Retry-After': String(seconds) });
}

/**
 * Email and password sign-in for people; signing up creates an organization on the Free plan
 * owned by the new user. Sign-ins, and refused ones for an existing account, go to the audit log
 * of the person's organization: after better-auth's own write, which a failed record does not undo.
 */
export function createAuth(deps: Deps, secret: string) {
  // An attempt's places, from the before hook to the after hook of the same call.
  const tickets = new WeakMap<object, SignInTicket>();
  // The account a sign-in's code step is for, likewise.
  const codeSteps = new WeakMap<object, string>();
  const https = deps.config.appUrl.startsWith('https://');
  const audit = async (what: string, record: () => Promise<void>) => {
    try {
      await record();
    } catch (error) {
      deps.log.error({ err: error }, `audit record failed: ${what}`);
    }
  };
  return betterAuth({
    appName: 'EU Mail',
    baseURL: deps.config.appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [deps.config.appUrl],
    database: drizzleAdapter(deps.db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // Password reset by a mailed link (issue 32 point 1, account-hooks.ts).
      ...passwordResetOptions(deps),
    },
    advanced: {
      database: { generateId: () => newId() },
      // Said outright rather than left to better-auth's defaults (docs/security.md): the session
      // cookie is out of scripts' reach, sent on top-level navigations from elsewhere but not on
      // their sub-requests or form posts, and only over HTTPS when the service is served on it.
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https, path: '/' },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // better-auth's own limits (in each process's memory) stay on its other paths; email sign-in
    // is counted per account and per address in the database instead (the hooks below).
    // The two-factor code routes likewise (their in-memory 3 per 10 s would also refuse a person
    // setting up and signing in at once): counted per address in the database (auth-routes.ts).
    rateLimit: { customRules: { '/sign-in/email': false, '/two-factor/*': false } },
    // Two-factor sign-in (server/auth/two-factor.ts, docs/two-factor.md).
    plugins: [...twoFactorPlugins(deps, audit)],
    telemetry: { enabled: false },
    databaseHooks: {
      user: {
        create: {
          // Team membership (issue 32): an invited sign-up lands in the inviting organization, any other in its own.
          after: async (user, context) => {
            await landNewUser(deps, user, { headers: context?.headers, origin: originOf(context ?? null) });
          },
        },
      },
      session: {
        create: {
          after: (session, context) =>
            audit('sign-in', async () => {
              // Changing the password with the others signed out hands this device a new session: not a sign-in.
              if (context?.path === CHANGE_PASSWORD_ROUTE) return;
              if (!(await sessionIsASignIn(deps, session.userId, context))) return;
              await recordSignIn(deps, { userId: session.userId, origin: originOf(context), via: context?.path ?? null });
            }),
        },
      },
    },
    hooks: {
      // Counted by the endpoint better-auth's router resolved (ctx.path is the endpoint's own
      // path), so no spelling of a path reaches a password check uncounted (docs/security.md).
      before: createAuthMiddleware(async (ctx) => {
        if (!isCountedAuthRoute(ctx.path)) return;
        // A code step of a sign-in counts against the account it signs in to, as its password did.
        const challengedEmail = await codeStepSignInEmail(deps, ctx);
        if (challengedEmail) codeSteps.set(ctx.context, challengedEmail);
        const ticket = await beginAuthAttempt(deps, ctx.path, { address: ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? null, email: ctx.body?.email, challengedEmail });
        if (!ticket) return;
        if (!ticket.allowed) return tooManyAttempts(ctx.path, ticket.retryAfterMs, requestIdOf(ctx.headers ?? new Headers()));
        tickets.set(ctx.context, ticket);
      }),
      after: createAuthMiddleware(async (ctx) => {
        const ticket = tickets.get(ctx.context);
        if (ticket?.allowed && !isAPIError(ctx.context.returned)) await ticket.succeeded();
        // Issue 32: the person's own password changes (account-hooks.ts).
        await audit('account change', () => recordAccountChange(deps, ctx));
        const refused = ctx.context.returned;
        if (!isAPIError(refused) || refused.statusCode !== 401) return;
        // A wrong password, or a wrong code at the sign-in's code step (the account its challenge is for).
        const email: unknown = ctx.path === SIGN_IN_ROUTE ? ctx.body?.email : codeSteps.get(ctx.context);
        if (typeof email !== 'string') return;
        await audit('failed sign-in', () => recordFailedSignIn(deps, { email, origin: originOf(ctx), reason: refused.body?.code ?? 'refused' }));
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
