import { bigint, boolean, pgTable, text } from 'drizzle-orm/pg-core';

/** One row per limited subject: the request times (epoch ms) inside the current sliding window. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  hits: bigint('hits', { mode: 'number' }).array().notNull(),
  lastAllowed: boolean('last_allowed').notNull(),
});
