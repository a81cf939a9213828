import { betterAuth } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { accounts, sessions, users, verifications } from '@/db/schema';
import type { Deps } from '../deps';
import { CLIENT_ADDRESS_HEADER, requestOrigin } from '../http/request-origin';
import { newId } from '../ids';
import { recordFailedSignIn, recordSignIn } from '../services/audit/sign-ins';
import { ensureOrganizationOfUser } from '../services/organizations/organizations';

/** Where a better-auth call came from: the headers the listener stamped on its request (none for a server-side call). */
const originOf = (context: { headers?: Headers } | null) => requestOrigin((name) => context?.headers?.get(name));

/**
 * Email and password sign-in for people; signing up creates an organization on the Free plan
 * owned by the new user. Sign-ins, and refused ones for an existing account, go to the audit log
 * of the person's organization: after better-auth's own write, which a failed record does not undo.
 */
export function createAuth(deps: Deps, secret: string) {
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
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8, maxPasswordLength: 128 },
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
    // is counted per account and per address in the database instead (server/http/sign-in.ts).
    rateLimit: { customRules: { '/sign-in/email': false } },
    telemetry: { enabled: false },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await ensureOrganizationOfUser(deps, user);
          },
        },
      },
      session: {
        create: {
          after: (session, context) =>
            audit('sign-in', () => recordSignIn(deps, { userId: session.userId, origin: originOf(context), via: context?.path ?? null })),
        },
      },
    },
    hooks: {
      after: createAuthMiddleware(async (ctx) => {
        const refused = ctx.context.returned;
        if (ctx.path !== '/sign-in/email' || !isAPIError(refused) || refused.statusCode !== 401) return;
        const email: unknown = ctx.body?.email;
        if (typeof email !== 'string') return;
        await audit('failed sign-in', () => recordFailedSignIn(deps, { email, origin: originOf(ctx), reason: refused.body?.code ?? 'refused' }));
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
