import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { claimColumns } from './claims';
import { organizations } from './organizations';
import { DOMAIN_STATUSES, type DnsRecordKind, type DnsRecordStatus } from '@/server/vocabulary/domain-statuses';

export const domains = pgTable(
  'domains',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lowercase, punycode (IDN converted). */
    name: text('name').notNull(),
    /** not_started | pending | verified | partially_verified | failed | temporary_failure */
    status: text('status', { enum: DOMAIN_STATUSES }).notNull().default('not_started'),
    returnPath: text('return_path').notNull().default('send'),
    openTracking: boolean('open_tracking').notNull().default(false),
    clickTracking: boolean('click_tracking').notNull().default(false),
    /** Per-record verification status, keyed by record (DKIM, MX, SPF, DMARC). */
    recordStatuses: jsonb('record_statuses').$type<Partial<Record<DnsRecordKind, DnsRecordStatus>>>().notNull().default({}),
    /** Set while a verification chain polls DNS (registration, verify now, lost records). */
    chainStartedAt: timestamp('chain_started_at', { withTimezone: true, mode: 'date' }),
    /** When the next DNS check is due; a row with a due time is pending work for the runner. */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true, mode: 'date' }),
    checkAttempts: integer('check_attempts').notNull().default(0),
    ...claimColumns(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, mode: 'date' }),
    /** First verification; held while the domain stays ours, so no other organization can claim the name. */
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('domains_org_idx').on(t.organizationId, t.id),
    uniqueIndex('domains_org_name_unique').on(t.organizationId, t.name),
    uniqueIndex('domains_verified_name_unique').on(t.name).where(sql`${t.verifiedAt} is not null`),
    index('domains_next_check_idx').on(t.nextCheckAt),
  ],
);

/** DKIM keys. A key outlives its domain as a retired row whose private key is wiped, so nothing signs with it again. */
export const dkimKeys = pgTable(
  'dkim_keys',
  {
    id: uuid('id').primaryKey(),
    domainId: uuid('domain_id').references(() => domains.id, { onDelete: 'set null' }),
    /**
     * Whose key it is: a domain's deletion leaves its retired key without a domain (set null), and
     * the organization's erasure must still find it (migration 0028).
     */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    selector: text('selector').notNull(),
    publicKey: text('public_key').notNull(),
    /** AES-256-GCM under the operator's key; null once retired. */
    privateKeyEncrypted: text('private_key_encrypted'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('dkim_keys_domain_idx').on(t.domainId), index('dkim_keys_organization_idx').on(t.organizationId)],
);
