import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { EventType } from '@/server/vocabulary/event-types';

/** Everything that happened to an organization's resources, in order: the source of webhook deliveries. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    // No foreign key: checking one per row cost a store as much as its inserts; organizations are
    // never deleted row by row, and deleting one deletes these by a statement trigger (migration 0021).
    organizationId: uuid('organization_id').notNull(),
    type: text('type').$type<EventType>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('events_org_idx').on(t.organizationId, t.id),
    // What a test key reads (GET /events, an endpoint's deliveries): test-mode events are few
    // beside live ones, and a live event costs this index nothing but the predicate.
    index('events_test_mode_idx').on(t.organizationId, t.id).where(sql`${t.data}->>'mode' = 'test'`),
  ],
);
