import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';
import { SUPPRESSION_REASONS } from '@/server/vocabulary/suppression-reasons';

/** Addresses an organization will not send to. Sending reads it; bounces, complaints and unsubscribes write it. */
export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Normalised: lowercase, ASCII domain. Null once the address was erased (docs/privacy.md): the hash stands in for it. */
    email: text('email'),
    /**
     * Set only on an erased address's entry: the keyed hash of the organization and the address
     * (suppressions/address-hash.ts), so sends to it stay suppressed without the address being kept.
     */
    emailHash: text('email_hash'),
    /** bounce | complaint | unsubscribe | manual */
    reason: text('reason', { enum: SUPPRESSION_REASONS }).notNull(),
    /** The email whose bounce or complaint put the address here. */
    emailId: uuid('email_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('suppressions_org_email_unique').on(t.organizationId, t.email),
    uniqueIndex('suppressions_org_email_hash_unique').on(t.organizationId, t.emailHash).where(sql`${t.emailHash} is not null`),
    check('suppressions_address_or_hash', sql`${t.email} is not null or ${t.emailHash} is not null`),
    index('suppressions_org_idx').on(t.organizationId, t.id),
    // Substring search of addresses (`search`).
    index('suppressions_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);
