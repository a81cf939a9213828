import { DAY_MS, MINUTE_MS } from '../shared/time';

// The periods of double opt-in (docs/consent.md, "Double opt-in"), declared once.

/** A confirmation link works this long after it was mailed. */
export const CONFIRMATION_LINK_DAYS = 7;

/** A contact still pending this long after its last confirmation was mailed is deleted, or, when it was there before the request, no longer pending (the unconfirmed-contacts sweep). */
export const UNCONFIRMED_CONTACT_DAYS = 30;

/**
 * Confirmations mailed to one contact, the first included: one per 10 minutes and five a day. A
 * person whose mail is slow asks once or twice more; beyond that the mail only fills someone's
 * inbox, maybe on another's behalf.
 */
export const CONFIRMATION_RESEND_LIMITS = [
  { windowMs: 10 * MINUTE_MS, max: 1, words: 'in the last 10 minutes' },
  { windowMs: DAY_MS, max: 5, words: '5 times in the last 24 hours' },
] as const;
