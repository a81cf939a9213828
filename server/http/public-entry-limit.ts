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
  /** Counts one request in the bucket `key`. */
  const takeKey = (key: string): EntryAdmission => {
    const nowMs = clock.now().getTime();
    const index = Math.floor(nowMs / limit.windowMs);
    if (index !== windowIndex) {
      windowIndex = index;
      counts = new Map();
    }
    const taken = (counts.get(key) ?? 0) + 1;
    if (taken > limit.requests) return { allowed: false, retryAfterMs: (index + 1) * limit.windowMs - nowMs };
    counts.set(key, taken);
    return { allowed: true };
  };
  return {
    /** Forgets every count (tests, between cases that share one server and one clock). */
    reset(): void {
      counts = new Map();
    },
    take: (address: string | null): EntryAdmission => takeKey(addressBucketKey(address)),
    /** The same count for a bucket named otherwise (a form, a submitted address). */
    takeKey,
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

/**
 * `POST /f/{formKey}`, each bucket counted on its own (docs/consent.md, "Forms"). Per client
 * address: a person signs up once or twice, a shared office a few dozen times an hour. Per
 * submitted address, across every form of the service: the same address a few times an hour at
 * most, so nobody can flood a victim with confirmation mail, whichever forms they use. Per form:
 * what a busy page takes, and a bound on what a flood from many addresses costs its organization.
 */
export const FORM_SUBMIT_LIMITS = {
  perClient: { requests: 20, windowMs: 60_000 },
  perEmail: { requests: 3, windowMs: 60 * 60_000 },
  perForm: { requests: 300, windowMs: 60_000 },
} satisfies Record<string, EntryLimit>;

/** The limiters of the public entry points one server keeps. */
export function createPublicEntryLimits(clock: Pick<Clock, 'now'>) {
  const confirmAddress = createEntryLimiter(CONFIRM_ADDRESS_LIMIT, clock);
  const stripeWebhook = createEntryLimiter(STRIPE_WEBHOOK_LIMIT, clock);
  const confirmSubscription = createEntryLimiter(CONFIRM_SUBSCRIPTION_LIMIT, clock);
  const formSubmit = {
    perClient: createEntryLimiter(FORM_SUBMIT_LIMITS.perClient, clock),
    perEmail: createEntryLimiter(FORM_SUBMIT_LIMITS.perEmail, clock),
    perForm: createEntryLimiter(FORM_SUBMIT_LIMITS.perForm, clock),
  };
  return {
    confirmAddress,
    stripeWebhook,
    confirmSubscription,
    formSubmit,
    reset(): void {
      confirmAddress.reset();
      stripeWebhook.reset();
      confirmSubscription.reset();
      for (const limiter of Object.values(formSubmit)) limiter.reset();
    },
  };
}

export type FormSubmitLimits = ReturnType<typeof createPublicEntryLimits>['formSubmit'];

export type PublicEntryLimits = ReturnType<typeof createPublicEntryLimits>;
