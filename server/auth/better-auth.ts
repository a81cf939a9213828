import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { accounts, sessions, users, verifications } from '@/db/schema';
import type { Deps } from '../deps';
import { newId } from '../ids';
import { ensureOrganizationOfUser } from '../services/organizations/organizations';

/**
 * The header better-auth reads the client's address from (its own rate limits, the address kept
 * on a session): the listener sets it from the socket and TRUSTED_PROXY_CIDRS, replacing whatever
 * a client sent (server/http/client-address.ts). better-auth would otherwise believe a client's
 * X-Forwarded-For, or, without one, count everybody in one bucket.
 */
export const CLIENT_ADDRESS_HEADER = 'x-eumail-client-address';

/** Email and password sign-in for people; signing up creates an organization on the Free plan owned by the new user. */
export function createAuth(deps: Deps, secret: string) {
  const https = deps.config.appUrl.startsWith('https://');
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
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
