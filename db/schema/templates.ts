import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/** A stored message with placeholders, rendered with variables when sent or previewed. */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    /** The variables its placeholders name, found when it was saved. */
    variables: text('variables').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('templates_org_idx').on(t.organizationId, t.id)],
);
