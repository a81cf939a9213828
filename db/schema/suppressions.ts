import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';
import { SUPPRESSION_REASONS } from '@/server/services/suppressions/reasons';

/** Addresses an organization will not send to. Sending reads it; bounces, complaints and unsubscribes write it. */
export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Normalised: lowercase, ASCII domain. */
    email: text('email').notNull(),
    /** bounce | complaint | unsubscribe | manual */
    reason: text('reason', { enum: SUPPRESSION_REASONS }).notNull(),
    /** The email whose bounce or complaint put the address here. */
    emailId: uuid('email_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('suppressions_org_email_unique').on(t.organizationId, t.email),
    index('suppressions_org_idx').on(t.organizationId, t.id),
    // Substring search of addresses (`search`).
    index('suppressions_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);
