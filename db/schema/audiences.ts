import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';

/** A list of contacts a broadcast goes to. */
export const audiences = pgTable(
  'audiences',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Kept by every statement that adds or removes contacts, so lists and the plan's cap never count rows. */
    contactCount: integer('contact_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('audiences_org_idx').on(t.organizationId, t.id)],
);

/** One address in one audience; the same address may be in several audiences. */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id').notNull(),
    audienceId: uuid('audience_id')
      .notNull()
      .references(() => audiences.id, { onDelete: 'cascade' }),
    /** Normalised like a recipient: lowercase, ASCII domain. */
    email: text('email').notNull(),
    name: text('name'),
    subscribed: boolean('subscribed').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('contacts_audience_email_unique').on(t.audienceId, t.email),
    index('contacts_audience_idx').on(t.audienceId, t.id),
    // Substring search of addresses (`search`), fast at millions of contacts.
    index('contacts_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);
