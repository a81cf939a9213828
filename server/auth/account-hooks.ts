import { isAPIError } from 'better-auth/api';
import type { Deps } from '../deps';
import { requestOrigin } from '../http/request-origin';
import { mailPasswordResetLink, recordPasswordChange, recordPasswordReset, RESET_LINK_TTL_MS } from '../services/accounts/password-reset';

/** better-auth's routes whose success is one of the person's own account changes, recorded after it. */
export const CHANGE_PASSWORD_ROUTE = '/change-password';

const originOfHeaders = (headers: Headers | undefined) => requestOrigin((name) => headers?.get(name));

/**
 * Password reset by a mailed link, on better-auth's own flow (docs/accounts.md): it makes the
 * token and answers a known and an unknown address alike; the mail is ours (system mail), sent
 * only for an account that exists; using the link signs out every session of the person.
 */
export function passwordResetOptions(deps: Deps) {
  return {
    resetPasswordTokenExpiresIn: RESET_LINK_TTL_MS / 1000,
    revokeSessionsOnPasswordReset: true,
    sendResetPassword: async ({ user, token }: { user: { id: string; email: string }; token: string }, request?: Request) => {
      await mailPasswordResetLink(deps, { user, token, origin: originOfHeaders(request?.headers) });
    },
    onPasswordReset: async ({ user }: { user: { id: string } }, request?: Request) => {
      await recordPasswordReset(deps, { userId: user.id, origin: originOfHeaders(request?.headers) });
    },
  };
}

interface AfterContext {
  path: string;
  body?: { revokeOtherSessions?: unknown } | null;
  headers?: Headers;
  context: { returned?: unknown; session?: { user: { id: string } } | null };
}

/** After better-auth answered: a password changed with the current one goes to the audit log. */
export async function recordAccountChange(deps: Deps, ctx: AfterContext): Promise<void> {
  if (ctx.path !== CHANGE_PASSWORD_ROUTE || isAPIError(ctx.context.returned)) return;
  const userId = ctx.context.session?.user.id;
  if (!userId) return;
  await recordPasswordChange(deps, { userId, origin: originOfHeaders(ctx.headers), otherSessionsSignedOut: ctx.body?.revokeOtherSessions === true });
}
