import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { claimColumns } from './claims';
import { API_KEY_MODES } from '@/server/vocabulary/api-keys';
import { EMAIL_STATUSES } from '@/server/vocabulary/email-statuses';
import type { EmailEventType } from '@/server/vocabulary/event-types';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** One accepted message. Test-mode emails live beside live ones and never see each other. */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey(),
    // No foreign key: checking one per row cost a store as much as its inserts; organizations are
    // never deleted row by row, and deleting one deletes these by a statement trigger (migration 0021).
    organizationId: uuid('organization_id').notNull(),
    /** live | test */
    mode: text('mode', { enum: API_KEY_MODES }).notNull(),
    /** The verified sending domain; null for the shared sandbox domain. */
    domainId: uuid('domain_id'),
    apiKeyId: uuid('api_key_id'),
    /** As given, with its display name. */
    from: text('from').notNull(),
    /** The sender address alone, lowercase: what `from=` filters match exactly. */
    fromAddress: text('from_address').notNull(),
    to: text('to').array().notNull(),
    cc: text('cc').array().notNull(),
    bcc: text('bcc').array().notNull(),
    replyTo: text('reply_to').array().notNull(),
    /** Every recipient address, lowercase: what `to=` filters match. */
    recipientAddresses: text('recipient_addresses').array().notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    tags: jsonb('tags').$type<Array<{ name: string; value: string }>>().notNull(),
    /** `name` and `name:value` of every tag: what `tag=` filters match. */
    tagKeys: text('tag_keys').array().notNull(),
    trackOpens: boolean('track_opens').notNull(),
    trackClicks: boolean('track_clicks').notNull(),
    /** queued | scheduled | canceled | sending | sent | delivered | bounced | complained | suppressed | failed */
    status: text('status', { enum: EMAIL_STATUSES }).notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    /** When the pipeline should next act on it; null when nothing is pending. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    ...claimColumns(),
    idempotencyKey: text('idempotency_key'),
    idempotencyExpiresAt: timestamp('idempotency_expires_at', { withTimezone: true, mode: 'date' }),
    messageId: text('message_id'),
    /** The Date header of the first build, so every retry sends the same (signed) message. */
    messageDate: timestamp('message_date', { withTimezone: true, mode: 'date' }),
    /**
     * The one recipient domain (lowercase) when every recipient is on it, else null: what the
     * dispatch claim compares with the busy destinations without reading the recipients' rows
     * (email_recipients, where each recipient's delivery stands).
     */
    destination: text('destination'),
    /** The original URLs of rewritten links, by index: a click token can only ever lead to one of these. */
    trackedLinks: text('tracked_links').array().notNull().default([]),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** A broadcast's message: the broadcast, and the contact it went to (its unsubscribe link names it). */
    broadcastId: uuid('broadcast_id'),
    contactId: uuid('contact_id'),
    /** How the email came in when not through the API: 'smtp' for the relay gateway. */
    submittedVia: text('submitted_via'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('emails_org_mode_idx').on(t.organizationId, t.mode, t.id),
    index('emails_org_status_idx').on(t.organizationId, t.mode, t.status, t.id),
    index('emails_org_from_idx').on(t.organizationId, t.mode, t.fromAddress, t.id),
    index('emails_recipients_gin').using('gin', t.recipientAddresses),
    index('emails_tag_keys_gin').using('gin', t.tagKeys),
    index('emails_due_idx').on(t.nextAttemptAt).where(sql`${t.nextAttemptAt} is not null`),
    // One message per contact and broadcast, whatever a fan-out retried: a second is skipped on insert.
    // A new unique index here must be named in `keyedDraft` (server/services/emails/accept/store.ts):
    // only drafts it calls keyed are stored with `on conflict do nothing`.
    uniqueIndex('emails_broadcast_contact_unique').on(t.broadcastId, t.contactId).where(sql`${t.broadcastId} is not null`),
    uniqueIndex('emails_idempotency_unique').on(t.organizationId, t.mode, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
  ],
);

/** The life of an email, oldest first: every status change and tracking signal. */
export const emailEvents = pgTable(
  'email_events',
  {
    id: uuid('id').primaryKey(),
    // No foreign key (a per-row check cost a store as much as the insert): written only beside its
    // email, deleted with it by a statement trigger on emails (migration 0021).
    emailId: uuid('email_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    type: text('type').$type<EmailEventType>().notNull(),
    recipient: text('recipient'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('email_events_email_idx').on(t.emailId, t.id)],
);

/** Attachments: the listing outlives the content, which is wiped after its 30-day retention. */
export const emailAttachments = pgTable(
  'email_attachments',
  {
    id: uuid('id').primaryKey(),
    emailId: uuid('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    /** Set for an inline part: the HTML refers to it as `cid:<contentId>`. */
    contentId: text('content_id'),
    size: integer('size').notNull(),
    content: bytea('content'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('email_attachments_email_idx').on(t.emailId)],
);
