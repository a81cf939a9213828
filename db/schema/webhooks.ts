import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { claimColumns } from './claims';
import { events } from './events';
import { organizations } from './organizations';
import { ATTEMPT_TRIGGERS, DELIVERY_STATUSES } from '@/server/vocabulary/webhook-statuses';

/** An organization's endpoint: where its events are POSTed, for both modes. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Event types, or ['*'] for every one. */
    events: text('events').array().notNull(),
    /** The live signing secret (whsec_...), sealed with ENCRYPTION_KEY like DKIM keys: it signs every event. */
    secretSealed: text('secret_sealed').notNull(),
    /**
     * The test-mode signing secret, sealed the same way: it signs test-mode events too, and is the
     * one a test key reads and rotates. Null for an endpoint made before it existed, until first
     * needed (a migration cannot seal: services/webhooks/mode-secrets.ts makes it then).
     */
    testSecretSealed: text('test_secret_sealed'),
    /** The first failed attempt since the last success: the start of a failing streak. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** When the owner was told about the current failing streak. */
    failureNotifiedAt: timestamp('failure_notified_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('webhooks_org_idx').on(t.organizationId, t.id)],
);

/** One event to deliver to one endpoint, with its retry schedule: due work, claimed like emails. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    /** The event delivered; its id is the `webhook-id` header, the same on every attempt and endpoint. */
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    /** Attempts of the schedule made so far (replays and pings are not counted). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    ...claimColumns(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.nextAttemptAt} is not null`),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** Every HTTP attempt of a delivery: what was answered, how long it took, what went wrong. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    webhookId: uuid('webhook_id').notNull(),
    trigger: text('trigger', { enum: ATTEMPT_TRIGGERS }).notNull(),
    /** The `webhook-timestamp` sent (seconds), so the signed request can be told apart from another. */
    signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }).notNull(),
    succeeded: boolean('succeeded').notNull(),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /** The first bytes of the response body, as text. */
    responseExcerpt: text('response_excerpt'),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id), index('webhook_attempts_webhook_idx').on(t.webhookId, t.attemptedAt)],
);
