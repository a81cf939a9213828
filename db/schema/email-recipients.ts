import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { RECIPIENT_STATUSES } from '@/server/vocabulary/email-statuses';

/**
 * Where the delivery of an email to one of its recipients stands: a row per envelope recipient, so
 * a delivery, a deferral, a bounce or a complaint writes its own row and nothing else's. The
 * email's status is derived from these rows (services/emails/aggregate-status.ts). The email
 * stays the unit of sending (one message built and signed, handed to its open recipients) and
 * holds the due time and the claim; see docs/delivery.md ("A row per recipient").
 */
export const emailRecipients = pgTable(
  'email_recipients',
  {
    // No foreign key (a per-row check cost a store as much as the insert): written only beside its
    // email, deleted with it by a statement trigger on emails (migration 0021).
    emailId: uuid('email_id').notNull(),
    /** Position in the envelope order (to, cc, bcc): the recipient index of its VERP address. */
    recipientIndex: integer('recipient_index').notNull(),
    address: text('address').notNull(),
    /** pending | deferred | delivered | bounced | complained | suppressed | failed */
    status: text('status', { enum: RECIPIENT_STATUSES }).notNull(),
    /** Deliveries tried to this recipient. */
    attempts: integer('attempts').notNull().default(0),
    /** When a deferred recipient is tried again; null otherwise (a pending one waits on the email's own due time). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    /** The last answer about it: the receiving server's reply, a report's diagnostic, or why it failed. */
    response: text('response'),
    /** Who receives it for us: its domain (lowercase) for now; the destination the per-process limits gate on. */
    provider: text('provider').notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailId, t.recipientIndex] })],
);
