import type { Clock } from '../clock';
import { addressBucketKey } from '../services/sign-in/throttle';

/** One public entry point's budget per client address (an IPv6 client by its /64). */
export interface EntryLimit {
  requests: number;
  windowMs: number;
}

export type EntryAdmission = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Counts requests to a public, keyless entry point per client address, in fixed windows held in
 * this process. Kept in memory rather than in the shared rate-limit table: these pages must stay
 * cheap to refuse (a flood is exactly when a database round trip per request hurts), and a few
 * processes each allowing the budget is still a bound. The counts of one window are dropped whole
 * when the next begins, so memory is bounded by the addresses seen in one window.
 */
export function createEntryLimiter(limit: EntryLimit, clock: Pick<Clock, 'now'>) {
  let windowIndex = -1;
  let counts = new Map<string, number>();
  return {
    /** Forgets every count (tests, between cases that share one server and one clock). */
    reset(): void {
      counts = new Map();
    },
    take(address: string | null): EntryAdmission {
      const nowMs = clock.now().getTime();
      const index = Math.floor(nowMs / limit.windowMs);
      if (index !== windowIndex) {
        windowIndex = index;
        counts = new Map();
      }
      const key = addressBucketKey(address);
      const taken = (counts.get(key) ?? 0) + 1;
      if (taken > limit.requests) return { allowed: false, retryAfterMs: (index + 1) * limit.windowMs - nowMs };
      counts.set(key, taken);
      return { allowed: true };
    },
  };
}

export type EntryLimiter = ReturnType<typeof createEntryLimiter>;

/**
 * `/confirm-address/<token>`: a person opens the page and presses one button, perhaps again after
 * a mistyped link; 30 a minute from one address is many people behind one NAT. The token (256
 * random bits) cannot be guessed at any rate: the limit keeps a flood off the database.
 */
export const CONFIRM_ADDRESS_LIMIT: EntryLimit = { requests: 30, windowMs: 60_000 };

/**
 * `/confirm-subscription/<token>` (double opt-in): as the address confirmation, a person opens the
 * page and presses one button; the token is signed, so the limit only keeps a flood off the database.
 */
export const CONFIRM_SUBSCRIPTION_LIMIT: EntryLimit = { requests: 30, windowMs: 60_000 };

/**
 * `POST /stripe/webhook`: Stripe sends from a handful of addresses, in bursts when many
 * subscriptions renew on the first of the month, and retries what is refused (for days), so the
 * budget is generous; it bounds what an unsigned flood costs before the signature is checked.
 */
export const STRIPE_WEBHOOK_LIMIT: EntryLimit = { requests: 600, windowMs: 60_000 };

/** The limiters of the public entry points one server keeps. */
export function createPublicEntryLimits(clock: Pick<Clock, 'now'>) {
  const confirmAddress = createEntryLimiter(CONFIRM_ADDRESS_LIMIT, clock);
  const stripeWebhook = createEntryLimiter(STRIPE_WEBHOOK_LIMIT, clock);
  const confirmSubscription = createEntryLimiter(CONFIRM_SUBSCRIPTION_LIMIT, clock);
  return {
    confirmAddress,
    stripeWebhook,
    confirmSubscription,
    reset(): void {
      confirmAddress.reset();
      stripeWebhook.reset();
      confirmSubscription.reset();
    },
  };
}

export type PublicEntryLimits = ReturnType<typeof createPublicEntryLimits>;
