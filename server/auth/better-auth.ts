import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { accounts, sessions, users, verifications } from '@/db/schema';
import type { Deps } from '../deps';
import { newId } from '../ids';
import { ensureOrganizationOfUser } from '../services/organizations/organizations';

/** Email and password sign-in for people; signing up creates an organization on the Free plan owned by the new user. */
export function createAuth(deps: Deps, secret: string) {
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
    advanced: { database: { generateId: () => newId() } },
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
