import { doublePrecision, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Traffic shaping per mailbox provider and sending domain (docs/delivery.md, "Traffic shaped per
 * provider"): what must outlive a process or be seen by the others. A pause is kept here the moment
 * it is made (every process reads it within seconds, and a restart keeps it); the adapted rate and
 * the reply counts are flushed from the delivering process's memory every few seconds, so the send
 * path never waits on this table. `sending_domain` '' is the provider for every sending domain (a
 * block naming the service's own address, or an operator's pause of the whole provider).
 */
export const deliveryShaping = pgTable(
  'delivery_shaping',
  {
    provider: text('provider').notNull(),
    sendingDomain: text('sending_domain').notNull(),
    /** Paused since then; null: not paused. */
    pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }),
    /** An automatic pause ends then (a probe follows); null with paused_at: until an operator resumes it. */
    pausedUntil: timestamp('paused_until', { withTimezone: true, mode: 'date' }),
    /** 'reply' (a reputation block) or 'operator'. */
    pausedBy: text('paused_by'),
    /** The reply that caused the pause, or the operator's reason. */
    pauseReason: text('pause_reason'),
    /** Messages per minute now allowed; null: the table's limit (no adaptation in force). */
    ratePerMinute: doublePrecision('rate_per_minute'),
    /** Replies and deferrals of the last window (about ten minutes), as last flushed. */
    replies: integer('replies').notNull().default(0),
    deferrals: integer('deferrals').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.sendingDomain] })],
);

/**
 * Which provider a recipient domain's MX hosts belong to, as last seen by a delivery: lets the
 * operator's status count the open recipients (whose rows name their domain) per provider.
 */
export const deliveryProviderDomains = pgTable('delivery_provider_domains', {
  domain: text('domain').primaryKey(),
  provider: text('provider').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull(),
});
