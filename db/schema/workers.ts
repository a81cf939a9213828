import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The processes that claim work. A worker on Postgres holds a session advisory lock on its
 * `lockKey` for its whole life, so others see it gone the moment its connection closes (kill -9).
 */
export const workers = pgTable('workers', {
  id: uuid('id').primaryKey(),
  /** host:pid and roles, for people reading the table. */
  name: text('name').notNull(),
  lockKey: integer('lock_key').notNull().unique(),
  /** When the lock was last taken (database time); null on PGlite, where one process owns the database. */
  lockedAt: timestamp('locked_at', { withTimezone: true, mode: 'date' }),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull(),
});
