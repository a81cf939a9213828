import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { ORGANIZATION_STATUSES } from '@/server/services/organizations/statuses';

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan').notNull().default('free'),
  /** active | restricted | suspended | paused */
  status: text('status', { enum: ORGANIZATION_STATUSES }).notNull().default('active'),
  reviewed: boolean('reviewed').notNull().default(false),
  overageEnabled: boolean('overage_enabled').notNull().default(false),
  ownerEmail: text('owner_email').notNull(),
  /** Operator override of the plan's requests per rate-limit window. */
  rateLimitOverride: integer('rate_limit_override'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('owner'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('members_user_unique').on(t.userId), index('members_org_idx').on(t.organizationId)],
);
