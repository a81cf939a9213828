import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { organizations } from './organizations';

/** How a plan-change request was closed (docs/billing.md). */
export const PLAN_REQUEST_RESOLUTIONS = ['approved', 'overridden', 'withdrawn', 'superseded'] as const;
export type PlanRequestResolution = (typeof PLAN_REQUEST_RESOLUTIONS)[number];

/**
 * Without a payment provider (no STRIPE_SECRET_KEY), an upgrade asked for in the dashboard is a
 * request the operator sees (`org:requests`) and grants with `org:plan`: the plan never rises
 * before a person who bills the customer says so. One open request per organization.
 */
export const planChangeRequests = pgTable(
  'plan_change_requests',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The plan in force when it was asked for, and the one asked for. */
    fromPlan: text('from_plan').notNull(),
    plan: text('plan').notNull(),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who asked, as the operator reads it (their address), kept if the person is deleted. */
    requestedByEmail: text('requested_by_email').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolution: text('resolution', { enum: PLAN_REQUEST_RESOLUTIONS }),
  },
  (t) => [
    uniqueIndex('plan_change_requests_open_unique').on(t.organizationId).where(sql`${t.resolvedAt} is null`),
    index('plan_change_requests_open_idx').on(t.requestedAt).where(sql`${t.resolvedAt} is null`),
  ],
);
