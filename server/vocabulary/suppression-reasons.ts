// The vocabulary of the suppression list, declared once. Imports nothing.

/** Why an address is on the list. */
export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * The reasons a caller may give (`POST /suppressions`, the batch import). `bounce` and
 * `complaint` are what the service observed itself, from a delivery report about one of its
 * emails (the entry then names that email); a caller cannot claim them.
 */
export const CALLER_REASONS = ['manual', 'unsubscribe'] as const satisfies readonly SuppressionReason[];
export type CallerReason = (typeof CALLER_REASONS)[number];
