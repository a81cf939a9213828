import { passwordResetEmail } from '@/emails/password-reset';
import type { Deps } from '../../deps';
import type { RequestOrigin } from '../shared/principal';
import { enqueueSystemEmail } from '../system-mail/queue';
import { recordForPerson } from './person-audit';

/**
 * How long a mailed reset link works: an hour. Enough to reach the mailbox; short, because the
 * link alone takes over the account (docs/accounts.md).
 */
export const RESET_LINK_TTL_MS = 60 * 60_000;

/** The dashboard page with the new-password form; better-auth's link redirects there with the token, or with `error=INVALID_TOKEN`. */
export const RESET_PASSWORD_PAGE = '/reset-password';

/**
 * The link the mail carries: better-auth's own check of the token, which sends the person on to
 * {@link RESET_PASSWORD_PAGE} with the token when it still works, or with INVALID_TOKEN when it
 * expired or was used. Built from APP_URL here, never from what the request asked for, so a reset
 * mail only ever leads to this service's page. Opening it changes nothing (mail scanners follow
 * links): only the form's POST uses the token.
 */
export function resetLinkOf(appUrl: string, token: string): string {
  const base = appUrl.replace(/\/+$/, '');
  return `${base}/api/auth/reset-password/${encodeURIComponent(token)}?callbackURL=${encodeURIComponent(`${base}${RESET_PASSWORD_PAGE}`)}`;
}

/**
 * Mails a reset link to an account's address (better-auth made the token and stores its expiry),
 * and records the request in the person's organizations' audit logs: both in one transaction, so
 * neither exists without the other. Only called for an address that has an account: an unknown
 * address gets the same answer from better-auth, and no mail.
 */
export async function mailPasswordResetLink(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'metrics' | 'jobs'>,
  input: { user: { id: string; email: string }; token: string; origin: RequestOrigin | null },
): Promise<void> {
  const id = await deps.db.transaction(async (tx) => {
    const mailId = await enqueueSystemEmail(tx, deps, {
      organizationId: null,
      kind: 'password_reset',
      to: input.user.email,
      email: passwordResetEmail({ email: input.user.email, url: resetLinkOf(deps.config.appUrl, input.token), validMinutes: RESET_LINK_TTL_MS / 60_000 }),
    });
    await recordForPerson(tx, deps, { userId: input.user.id, action: 'user.password_reset_requested', origin: input.origin });
    return mailId;
  });
  deps.jobs.wake('system-mail', id);
}

/** A reset link used: the new password is set and every session of the person was signed out (better-auth's revokeSessionsOnPasswordReset). */
export async function recordPasswordReset(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; origin: RequestOrigin | null }): Promise<void> {
  await deps.db.transaction((tx) => recordForPerson(tx, deps, { userId: input.userId, action: 'user.password_reset', origin: input.origin, details: { via: 'link', sessionsSignedOut: 'all' } }));
}

/** A signed-in person changed their password with their current one; `otherSessionsSignedOut` when the others were signed out with it. */
export async function recordPasswordChange(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; origin: RequestOrigin | null; otherSessionsSignedOut: boolean }): Promise<void> {
  await deps.db.transaction((tx) =>
    recordForPerson(tx, deps, { userId: input.userId, action: 'user.password_changed', origin: input.origin, details: { otherSessionsSignedOut: input.otherSessionsSignedOut } }),
  );
}
