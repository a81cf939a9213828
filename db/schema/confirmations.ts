import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contacts } from './audiences';
import { organizations } from './organizations';

/** A topic choice a confirmation applies: the contact's own choice, as `PATCH /contacts/{idOrEmail}/topics` sets one. */
export interface ConfirmationTopicChoice {
  id: string;
  subscription: 'opt_in' | 'opt_out';
}

/**
 * One double opt-in confirmation mailed to a contact (docs/consent.md, "Double opt-in"): what
 * confirming it does (the audiences it joins, the topic choices it makes, the form it came from)
 * and the email that carried its link. The link's token names the row and its expiry; the row is
 * what the re-send throttle counts and what the unconfirmed-contacts sweep reads. It goes with the
 * contact.
 */
export const contactConfirmations = pgTable(
  'contact_confirmations',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** The confirmation email (no foreign key: the email's log retention may end first). */
    emailId: uuid('email_id'),
    /** The sender and template it was mailed with, which a re-send uses again. */
    fromAddress: text('from_address').notNull(),
    templateId: uuid('template_id'),
    audienceIds: uuid('audience_ids').array().notNull().default([]),
    topics: jsonb('topics').$type<ConfirmationTopicChoice[]>().notNull().default([]),
    /** The hosted form it came from, and the version of its consent text the person was shown. */
    formId: uuid('form_id'),
    formVersion: integer('form_version'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('contact_confirmations_contact_idx').on(t.contactId, t.createdAt)],
);
