import { AppError } from '../../errors';

/** At most `max` mails in any `windowMs`. */
export interface ResendLimit {
  windowMs: number;
  max: number;
}

/**
 * Resends of a mailed link, counting the first mail: one a minute and five an hour. A person whose
 * mail is slow asks again once or twice; more only mails someone else's inbox on an attacker's behalf.
 */
export const RESEND_LIMITS: readonly ResendLimit[] = [
  { windowMs: 60_000, max: 1 },
  { windowMs: 3_600_000, max: 5 },
];

/** How far back the mails that count reach: the longest window. */
export const longestResendWindowMs = Math.max(...RESEND_LIMITS.map((limit) => limit.windowMs));

/**
 * Refuses one more mail of a kind with RATE_LIMITED (and Retry-After) when the mails already sent
 * (`sentAt`, any order) fill one of the `limits`' windows; room comes back once the oldest mail in
 * that window leaves it. `what` names the mail in the sentence: "An invitation to ada@…".
 */
export function requireRoomToResend(limits: readonly ResendLimit[], sentAt: readonly Date[], nowMs: number, what: string): void {
  for (const limit of limits) {
    const inWindow = sentAt.map((at) => at.getTime()).filter((at) => at > nowMs - limit.windowMs).sort((a, b) => a - b);
    if (inWindow.length < limit.max) continue;
    const seconds = Math.max(1, Math.ceil((inWindow[0]! + limit.windowMs - nowMs) / 1000));
    const when = limit.max === 1 ? 'less than a minute ago' : `${limit.max} times in the last hour`;
    throw new AppError('RATE_LIMITED', `${what} was sent ${when}; ask again in ${seconds} s`, { 'Retry-After': String(seconds) });
  }
}
