'use client';

/**
 * The invitation a person without a session is following, for the sign-up hook
 * (server/services/members/sign-up.ts): it lands the new account in the inviting organization.
 * An hour is enough to fill in the sign-up form; the link itself is single use either way.
 */
export function rememberInvitation(token: string): void {
  document.cookie = `eumail_invitation=${token}; path=/; max-age=3600; samesite=lax`;
}

/** Where to go after signing in: back to an invitation page, never anywhere else (no open redirect). */
export function afterSignIn(): string {
  const next = new URLSearchParams(window.location.search).get('next');
  return next && /^\/invitation\/[A-Za-z0-9_-]{1,128}$/.test(next) ? next : '/';
}
