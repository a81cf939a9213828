import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { audiences } from './audiences';
import { claimColumns } from './claims';
import { topics } from './contact-model';
import { organizations } from './organizations';
import { templates } from './templates';
import { BROADCAST_STATUSES, HOLD_REASONS } from '@/server/vocabulary/broadcast-statuses';

/**
 * One message to a whole audience. Its fan-out walks the audience's contacts by id, from `cursor`
 * (the last contact handled) up to `lastContactId` (the newest contact when sending started), a
 * chunk per transaction, so a crash resumes at the next chunk. The counts are kept by the
 * statements that change them, so a read never counts emails.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Null once the audience is deleted (only possible while the broadcast is not scheduled, sending or held). */
    audienceId: uuid('audience_id').references(() => audiences.id, { onDelete: 'set null' }),
    /** Sent under a topic: only the members in it get the broadcast, and its unsubscribe leaves the topic only. */
    topicId: uuid('topic_id').references(() => topics.id, { onDelete: 'set null' }),
    /** Only contacts whose consent was confirmed (double opt-in, or an import that declared it) get it (docs/consent.md). */
    requireConfirmedConsent: boolean('require_confirmed_consent').notNull().default(false),
    name: text('name').notNull(),
    from: text('from').notNull(),
    replyTo: text('reply_to').array().notNull().default([]),
    /** Null with a template: the template's subject. Liquid, like the bodies. */
    subject: text('subject'),
    html: text('html'),
    text: text('text'),
    templateId: uuid('template_id').references(() => templates.id, { onDelete: 'set null' }),
    /** The preheader: plain text inboxes show after the subject, put hidden at the start of each copy's HTML. */
    previewText: text('preview_text'),
    /** draft | scheduled | sending | held | sent | cancelled | failed */
    status: text('status', { enum: BROADCAST_STATUSES }).notNull(),
    /** Why a held broadcast waits: review (until an operator approves), daily_limit or monthly_limit (until the reset). */
    heldReason: text('held_reason', { enum: HOLD_REASONS }),
    failedReason: text('failed_reason'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    /** When the fan-out should next act: the send time, now while sending, a limit's reset while held; null otherwise. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    ...claimColumns(),
    /** The newest contact of the audience when sending started: later contacts are not included. */
    lastContactId: uuid('last_contact_id'),
    /** The last contact the fan-out handled; null before the first chunk. */
    cursor: uuid('cursor'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    /** When the last message was handed to delivery. */
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    /** Subscribed contacts when sending started. */
    recipients: integer('recipients').notNull().default(0),
    /** Emails handed to delivery. */
    queued: integer('queued').notNull().default(0),
    /** Contacts on the suppression list, and contacts unsubscribed or removed after sending started. */
    suppressed: integer('suppressed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** Queued emails withdrawn by a cancel before delivery took them. */
    canceled: integer('canceled').notNull().default(0),
    /** Emails that reached each outcome (opened, clicked and unsubscribed count each email once). */
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    bounced: integer('bounced').notNull().default(0),
    complained: integer('complained').notNull().default(0),
    opened: integer('opened').notNull().default(0),
    clicked: integer('clicked').notNull().default(0),
    /** Of those, the emails opened (clicked) at least once by a person, not only by proxies and scanners (docs/tracking.md). */
    openedHuman: integer('opened_human').notNull().default(0),
    clickedHuman: integer('clicked_human').notNull().default(0),
    unsubscribed: integer('unsubscribed').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('broadcasts_org_idx').on(t.organizationId, t.id),
    index('broadcasts_audience_idx').on(t.audienceId).where(sql`${t.audienceId} is not null`),
    index('broadcasts_topic_idx').on(t.topicId).where(sql`${t.topicId} is not null`),
    index('broadcasts_due_idx').on(t.nextAttemptAt).where(sql`${t.nextAttemptAt} is not null`),
  ],
);
