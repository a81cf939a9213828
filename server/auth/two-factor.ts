import { eq } from 'drizzle-orm';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { users } from '@/db/schema';
import type { Deps } from '../deps';
import { requestOrigin } from '../http/request-origin';
import { recordSignIn } from '../services/audit/sign-ins';
import { recordTwoFactorSwitch } from '../services/two-factor';

/**
 * Two-factor sign-in for people (docs/two-factor.md): better-auth's twoFactor plugin with TOTP
 * and one-time recovery codes, both stored encrypted with the auth secret, and this project's
 * audit records around it.
 */

type Audit = (what: string, record: () => Promise<void>) => Promise<void>;
type HookContext = { path?: string; headers?: Headers; context?: { authCookies?: { sessionToken: { name: string } } } } | null;

const originOf = (context: HookContext) => requestOrigin((name) => context?.headers?.get(name) ?? null);

/** The plugin's paths that rotate a signed-in person's session on a change of setting: no sign-in. */
const ROTATING_PATHS = new Set(['/two-factor/enable', '/two-factor/disable']);
/** The code step of a sign-in, or (with a session) the code that confirms a set-up. */
const CODE_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

function carriesSessionCookie(context: HookContext): boolean {
  const name = context?.context?.authCookies?.sessionToken.name;
  const cookie = context?.headers?.get('cookie');
  return Boolean(name && cookie?.split(';').some((part) => part.trim().startsWith(`${name}=`)));
}

/** What the before hook reads of better-auth's endpoint context to find a code step's account. */
export interface CodeStepContext {
  path: string;
  headers?: Headers;
  context: {
    secret: string;
    authCookies?: { sessionToken: { name: string } };
    createAuthCookie(name: string): { name: string };
    internalAdapter: { findVerificationValue(identifier: string): Promise<{ value: string } | null | undefined> };
  };
  getSignedCookie(name: string, secret: string): Promise<string | null | false | undefined>;
}

/** The plugin's challenge cookie, set by a password sign-in of a person with two-factor sign-in. */
const CHALLENGE_COOKIE = 'two_factor';

/**
 * The address of the account a code step of a sign-in is for (the signed challenge cookie the
 * password step set, read as the plugin reads it), or null: not a code step, a code that confirms
 * a set-up (with a session), or no live challenge (the plugin refuses that itself).
 */
export async function codeStepSignInEmail(deps: Pick<Deps, 'db'>, ctx: CodeStepContext): Promise<string | null> {
  if (!CODE_PATHS.has(ctx.path) || carriesSessionCookie(ctx)) return null;
  const challenge = await ctx.getSignedCookie(ctx.context.createAuthCookie(CHALLENGE_COOKIE).name, ctx.context.secret);
  if (!challenge) return null;
  const verification = await ctx.context.internalAdapter.findVerificationValue(challenge);
  if (!verification) return null;
  const [user] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, verification.value));
  return user?.email ?? null;
}

/**
 * Whether a new session is a sign-in for the audit log. The plugin makes sessions that are not:
 * it rotates the session when 2FA is turned on or off, and a password sign-in of a person with
 * 2FA makes one that it deletes at once to ask for a code (the code step is the sign-in).
 */
export async function sessionIsASignIn(deps: Pick<Deps, 'db'>, userId: string, context: HookContext): Promise<boolean> {
  const path = context?.path ?? '';
  if (ROTATING_PATHS.has(path)) return false;
  if (CODE_PATHS.has(path)) return !carriesSessionCookie(context);
  if (path === '/sign-in/email') {
    const [user] = await deps.db.select({ twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, userId));
    return !user?.twoFactorEnabled;
  }
  return true;
}

/**
 * Audit records the plugin does not write: 2FA turned on (the code that confirmed the set-up:
 * the plugin's only user update on the code step) and off; and a sign-in of a person with 2FA
 * that the plugin let through without a code (a device trusted earlier), which the session hook
 * left out. Listed after the plugin, so its after hook sees what the plugin's left.
 */
function twoFactorAudit(deps: Deps, audit: Audit): BetterAuthPlugin {
  return {
    id: 'eu-mail-two-factor-audit',
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            update: {
              after: async (user, context) => {
                const path = context?.path;
                const enabled = (user as { twoFactorEnabled?: boolean }).twoFactorEnabled === true;
                const switched = (path === '/two-factor/verify-totp' && enabled) || (path === '/two-factor/disable' && !enabled);
                if (!switched) return;
                await audit('two-factor switch', () => recordTwoFactorSwitch(deps, { userId: user.id, enabled, origin: originOf(context) }));
              },
            },
          },
        },
      },
    }),
    hooks: {
      after: [
        {
          matcher: (context) => context.path === '/sign-in/email',
          handler: createAuthMiddleware(async (ctx) => {
            const fresh = ctx.context.newSession;
            if (!fresh || !(fresh.user as { twoFactorEnabled?: boolean }).twoFactorEnabled) return;
            await audit('sign-in', () => recordSignIn(deps, { userId: fresh.user.id, origin: originOf(ctx), via: ctx.path }));
          }),
        },
      ],
    },
  };
}

/** The plugins for two-factor sign-in, in order: the plugin, then its audit records. */
export function twoFactorPlugins(deps: Deps, audit: Audit) {
  return [
    twoFactor({
      issuer: 'EU Mail',
      // Turning it on, off and making new recovery codes ask for the password again.
      allowPasswordless: false,
    }),
    twoFactorAudit(deps, audit),
  ] as const;
}
