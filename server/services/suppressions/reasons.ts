// The vocabulary of the suppression list, declared once. Imports nothing.

/** Why an address is on the list. */
export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
