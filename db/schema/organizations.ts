import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { ORGANIZATION_STATUSES, STATUS_CAUSES } from '@/server/vocabulary/organization-statuses';
import { ROLES } from '@/server/vocabulary/roles';

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan').notNull().default('free'),
  /** active | restricted | suspended | paused */
  status: text('status', { enum: ORGANIZATION_STATUSES }).notNull().default('active'),
  /** Who put the status where it is when it is not active: the operator, or an unpaid renewal; null while active. */
  statusCause: text('status_cause', { enum: STATUS_CAUSES }),
  reviewed: boolean('reviewed').notNull().default(false),
  overageEnabled: boolean('overage_enabled').notNull().default(false),
  ownerEmail: text('owner_email').notNull(),
  /** Operator override of the plan's requests per rate-limit window. */
  rateLimitOverride: integer('rate_limit_override'),
  /** Contacts the organization stores (one per address), kept by every statement that adds or removes one: the plan's cap reads it. */
  contactCount: integer('contact_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** When the organization last moved from Free to a paid volume: the new-account pool starts here. */
  paidSince: timestamp('paid_since', { withTimezone: true, mode: 'date' }),
  /** When it left the new-account pool by volume (by time it leaves at paidSince + 7 days, not recorded). */
  poolExitedAt: timestamp('pool_exited_at', { withTimezone: true, mode: 'date' }),
  /** The hourly evaluation of sending standing: when it last ran and what it found. */
  standingEvaluatedAt: timestamp('standing_evaluated_at', { withTimezone: true, mode: 'date' }),
  busiestRecentDay: integer('busiest_recent_day').notNull().default(0),
  /** Why the daily ceiling is halved (an elevated bounce or complaint rate); null when it is not. */
  elevatedReason: text('elevated_reason'),
  /** A downgrade waits for the end of the billing period. */
  pendingPlan: text('pending_plan'),
  pendingPlanAt: timestamp('pending_plan_at', { withTimezone: true, mode: 'date' }),
  /**
   * When the owner's address was confirmed (the mailed link, or at creation by the operator's CLI);
   * null until then, and nothing leaves on the account's behalf (docs/security.md).
   */
  ownerConfirmedAt: timestamp('owner_confirmed_at', { withTimezone: true, mode: 'date' }),
  /** The owner's choice: every member signs in with a second factor (docs/two-factor.md). */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  /**
   * Where the service's own mail to the organization goes (key revoked, overage, held broadcasts,
   * failing webhooks), once confirmed by its mailed link; null: the owner's address (docs/organization-settings.md).
   */
  notificationEmail: text('notification_email'),
  /** The owner asked to delete the organization: keys and sending stop now, everything is erased at eraseAfter unless cancelled. */
  deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true, mode: 'date' }),
  eraseAfter: timestamp('erase_after', { withTimezone: true, mode: 'date' }),
  /**
   * A renewal the payment provider could not collect: when it first failed, and until when sending
   * goes on regardless (BILLING_GRACE_DAYS later); both null once paid (docs/billing.md).
   */
  paymentFailedAt: timestamp('payment_failed_at', { withTimezone: true, mode: 'date' }),
  paymentGraceUntil: timestamp('payment_grace_until', { withTimezone: true, mode: 'date' }),
});

/** The links mailed to confirm a new notification address: each expires, is used once, and a newer one replaces it. */
export const notificationConfirmations = pgTable(
  'notification_confirmations',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The address asked for, lowercased: the link confirms that address only. */
    email: text('email').notNull(),
    /** SHA-256 of the link's token (hex); the token itself is only in the mail. */
    tokenHash: text('token_hash').notNull(),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    /** Another address asked for (or the owner's taken back) since: this link confirms nothing. */
    replacedAt: timestamp('replaced_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('notification_confirmations_token_unique').on(t.tokenHash), index('notification_confirmations_org_idx').on(t.organizationId, t.createdAt)],
);

/** What an organization held when its deletion was asked for, downloadable until it is erased. */
export const organizationExports = pgTable(
  'organization_exports',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The JSON document (docs/organization-settings.md lists what it holds). */
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('organization_exports_org_idx').on(t.organizationId, t.createdAt)],
);

/** The links mailed to confirm an owner's address: each expires and is used once; the rows also count resends. */
export const ownerConfirmations = pgTable(
  'owner_confirmations',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to: it confirms that address only. */
    email: text('email').notNull(),
    /** SHA-256 of the link's token (hex); the token itself is only in the mail. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('owner_confirmations_token_unique').on(t.tokenHash), index('owner_confirmations_org_idx').on(t.organizationId, t.createdAt)],
);

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
    /** server/vocabulary/roles.ts; one owner per organization. */
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // A person may belong to several organizations, once each.
  (t) => [uniqueIndex('members_org_user_unique').on(t.organizationId, t.userId), index('members_user_idx').on(t.userId)],
);

/** Invitations to join an organization with a role: mailed links that expire and are used once (docs/teams.md). */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The invited address, lowercased: only a person signed in with it can accept. */
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    /** SHA-256 of the link's token (hex); a resend replaces it, so the earlier link stops working. */
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('invitations_token_unique').on(t.tokenHash), index('invitations_org_idx').on(t.organizationId, t.createdAt)],
);
