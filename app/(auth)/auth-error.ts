/**
 * What to tell a person about a refused better-auth call: better-auth's own errors carry
 * `message`; the throttle in front of it answers the API's `{error, code}`.
 */
export const authErrorMessage = (error: { message?: string; code?: string } | null | undefined, fallback: string): string =>
  error?.message ?? (error as { error?: string } | null | undefined)?.error ?? fallback;
