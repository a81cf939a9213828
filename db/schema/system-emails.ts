import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { claimColumns } from './claims';
import { organizations } from './organizations';
import { SYSTEM_EMAIL_STATUSES } from '@/server/vocabulary/system-email-statuses';

/** The service's own messages to its customers (key revoked, overage entered, ...): an outbox. */
export const systemEmails = pgTable(
  'system_emails',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** pending | sending | sent | failed */
    status: text('status', { enum: SYSTEM_EMAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    ...claimColumns(),
    /** Why it is not sent yet, or why it failed; null once sent. */
    lastError: text('last_error'),
    /** The receiving server's (or the relay's) answer to the last attempt, or why none answered. */
    lastResponse: text('last_response'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('system_emails_due_idx').on(t.status, t.nextAttemptAt)],
);
