/** Attempts of a delivery's schedule: the first one and three retries. */
export const MAX_ATTEMPTS = 4;
/** Each retry waits this many times longer than the one before. */
const GROWTH = 10;

/**
 * When the next attempt is due after `attempts` failed ones, or null when that was the last:
 * base, 10 x base, 100 x base after the first, second and third failure (30 s, 5 min, 50 min by
 * default), so a receiver that is down for a deploy or an hour still gets the event.
 */
export function nextAttemptAfter(attempts: number, failedAt: Date, baseMs: number): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return new Date(failedAt.getTime() + baseMs * GROWTH ** (attempts - 1));
}
