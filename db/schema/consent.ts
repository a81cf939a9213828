import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CONSENT_ACTIONS, CONSENT_VIAS } from '@/server/vocabulary/consent';

/**
 * The consent ledger (docs/consent.md): one entry per change of a contact's consent, appended by
 * the database itself (triggers on contacts, audience memberships, topic choices and suppressions,
 * migration 0042) so no path that changes consent can leave it out. What the change came through
 * is what the writing transaction declared (server/services/consent/source.ts). Entries are never
 * rewritten: a trigger refuses every update but an erasure's, which replaces the address with its
 * keyed hash and drops the client's address and user agent.
 *
 * No foreign keys: an entry outlives its contact (the proof of an opt-out matters most after the
 * contact is gone), and the organization's erasure deletes its entries itself.
 */
export const consentEntries = pgTable(
  'consent_entries',
  {
    /** In the order the changes were written. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id').notNull(),
    contactId: uuid('contact_id'),
    /** Normalised like a contact's; null once erased, when `emailHash` stands in for it. */
    email: text('email'),
    /** The suppression list's keyed hash of the address (suppressions/address-hash.ts), set by an erasure. */
    emailHash: text('email_hash'),
    action: text('action', { enum: CONSENT_ACTIONS }).notNull(),
    /** The audience the change was about; null for the organization as a whole or a topic. */
    audienceId: uuid('audience_id'),
    topicId: uuid('topic_id'),
    via: text('via', { enum: CONSENT_VIAS }).notNull(),
    apiKeyId: uuid('api_key_id'),
    /** The dashboard member (or the member who started an import). */
    userId: text('user_id'),
    importId: uuid('import_id'),
    formId: uuid('form_id'),
    /** The version of the form's consent text the person was shown. */
    formVersion: integer('form_version'),
    /** The email whose link, page or complaint it came from. */
    emailId: uuid('email_id'),
    /** The client's address and user agent, for a change the person made themselves (docs/consent.md). */
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * The declaring transaction's mark (server/services/consent/source.ts): the entries one
     * transaction wrote, which its `contact.consent_changed` events are made from. Not shown.
     */
    batchId: uuid('batch_id'),
  },
  (t) => [
    index('consent_entries_batch_idx').on(t.batchId).where(sql`${t.batchId} is not null`),
    index('consent_entries_contact_idx').on(t.organizationId, t.contactId, t.id),
    index('consent_entries_email_idx').on(t.organizationId, t.email),
    check('consent_entries_address_or_hash', sql`${t.email} is not null or ${t.emailHash} is not null`),
  ],
);
