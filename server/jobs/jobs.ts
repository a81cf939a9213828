/**
 * The kinds of pending work, by name: what services wake and what the declarations in
 * ./due-work.ts are keyed by (a name without its declaration, or the reverse, does not compile).
 * Imports nothing: `Deps` types `wake` with it, and services sit below the declarations.
 */
export const JOB_KINDS = ['system-mail', 'domain-check', 'email-dispatch', 'webhook-delivery', 'broadcast-fanout', 'contact-import', 'plan-changes', 'payment-grace', 'overage-meter', 'retention', 'sunset', 'unconfirmed-contacts', 'automation-run', 'automation-email-triggers', 'automation-date-triggers', 'automation-segment-triggers', 'automation-retention'] as const;

/** A kind of pending work. Each is a due row in Postgres; a wake-up only shortens the wait for it. */
export type JobKind = (typeof JOB_KINDS)[number];

/** Whose work it is, for drivers that limit concurrency per organization (Inngest's concurrency keys). */
export interface WakeScope {
  organizationId: string;
}

/**
 * Tells whatever drives background work that a row is due now. The row itself is the truth:
 * a lost wake-up only delays the work until the next sweep.
 */
export interface Jobs {
  /** One row or many (a batch of emails wakes once); none: something of this kind is due (its sweep runs). */
  wake(kind: JobKind, id: string | string[], scope?: WakeScope): void;
}
