import { timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The two columns every table of due work carries (server/services/shared/claims): which process
 * holds the row and until when (database time). A row nobody holds has both null.
 */
export const claimColumns = () => ({
  claimedBy: uuid('claimed_by'),
  claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
});
