/**
 * What to tell a person about a refused better-auth call: better-auth's own errors carry
 * `message`; the sign-in throttle in front of it answers the API's `{error, code}`.
 */
export function authErrorMessage(error: { message?: string; status?: number } | null | undefined, fallback: string): string {
  if (!error) return fallback;
  return error.message ?? (error as { error?: string }).error ?? fallback;
}
