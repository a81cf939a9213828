import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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

/**
 * With Stripe (docs/billing.md): the organization's Stripe customer, made once on its first
 * checkout, and the newest state of its subscription as the webhooks reported it. `stateAt` is the
 * `created` time of the event that wrote the subscription columns: an older event never overwrites
 * a newer one (Stripe does not promise order).
 */
export const stripeAccounts = pgTable('stripe_accounts', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  subscriptionId: text('subscription_id'),
  /** Stripe's subscription status: active, past_due, incomplete, canceled, ... */
  subscriptionStatus: text('subscription_status'),
  /** The plan of the subscription's price, as Stripe last reported it (null: a price no plan has). */
  subscriptionPlan: text('subscription_plan'),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }),
  stateAt: timestamp('state_at', { withTimezone: true, mode: 'date' }),
  /** A checkout completed with a payment that takes days (SEPA debit): the plan paid for once it clears. */
  paymentPendingPlan: text('payment_pending_plan'),
  paymentPendingSince: timestamp('payment_pending_since', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Every verified Stripe event, by its id: a redelivered event finds its row and is not applied again. */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The event's own `created` (Stripe's clock), and when this service received it. */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    /** What applying it did, for the operator: 'plan_raised', 'ignored: ...', ... */
    outcome: text('outcome').notNull(),
  },
  (t) => [index('stripe_events_organization_idx').on(t.organizationId)],
);

/**
 * Metered overage as reported to Stripe (docs/billing.md): one row per 1,000 past the quota of an
 * organization's month (each full thousand as it fills, the partial one once the month is over),
 * written once Stripe took the meter event whose identifier is
 * `overage:<organization>:<YYYY-MM>:<thousand>`. The identifier makes a retry harmless at Stripe;
 * this row makes it harmless here (the next sweep starts after the highest thousand recorded).
 */
export const overageMeterReports = pgTable(
  'overage_meter_reports',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The first day of the UTC month the thousand belongs to. */
    month: date('month', { mode: 'string' }).notNull(),
    /** 1 for the first thousand past the quota, 2 for the second, ... */
    thousand: integer('thousand').notNull(),
    /** The meter event's value: that thousand's cost in thousandths of a euro cent, as metered at each send. */
    valueMillicents: integer('value_millicents').notNull(),
    identifier: text('identifier').notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month, t.thousand] })],
);
