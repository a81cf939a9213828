import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/** Sending domains. The foundation needs only ownership (keys pin to a domain); DNS and DKIM columns come with the domains work. */
export const domains = pgTable(
  'domains',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').notNull().default('not_started'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('domains_org_idx').on(t.organizationId, t.id), uniqueIndex('domains_org_name_unique').on(t.organizationId, t.name)],
);
