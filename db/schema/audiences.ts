import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';
import { templates } from './templates';
import type { SegmentRules } from '@/server/vocabulary/segment-rules';

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
    /**
     * A segment defined by rules (docs/contacts.md): its memberships are the contacts the rules
     * matched when last evaluated (at creation, at a change, at each broadcast's hand-off); null for
     * a list whose contacts are added.
     */
    rules: jsonb('rules').$type<SegmentRules>(),
    rulesEvaluatedAt: timestamp('rules_evaluated_at', { withTimezone: true, mode: 'date' }),
    /**
     * Sunset by human engagement (docs/audiences.md, "Sunset"): members with no human open or click
     * for this many months are set sunset here and get no broadcast; null: off.
     */
    sunsetAfterMonths: integer('sunset_after_months'),
    /**
     * The re-engagement email before sunset (docs/audiences.md, "Re-engagement"): a member due is
     * first sent this published template from `sunsetReengagementFrom`, and set sunset only if no
     * person shows up within `sunsetGraceDays`. The sender set with the template null means the
     * template was deleted: the run then sends nothing and sunsets nobody it has not warned.
     */
    sunsetReengagementTemplateId: uuid('sunset_reengagement_template_id').references(() => templates.id, { onDelete: 'set null' }),
    sunsetReengagementFrom: text('sunset_reengagement_from'),
    sunsetGraceDays: integer('sunset_grace_days'),
    /** Why the last run could not send the re-engagement email (the sender's domain, the limits, the template), shown on the audience; null once one went. */
    sunsetReengagementError: text('sunset_reengagement_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('audiences_org_idx').on(t.organizationId, t.id),
    check('audiences_sunset_after_months_range', sql`${t.sunsetAfterMonths} between 1 and 36`),
    check('audiences_sunset_grace_days_range', sql`${t.sunsetGraceDays} between 1 and 90`),
    check('audiences_sunset_reengagement_whole', sql`(${t.sunsetReengagementFrom} is null) = (${t.sunsetGraceDays} is null)`),
  ],
);

/**
 * One person the organization writes to: one row per (organization, lowercase address), in as
 * many audiences as its memberships say (docs/contacts.md).
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Normalised like a recipient: lowercase, ASCII domain. */
    email: text('email').notNull(),
    /** As given; "first last" when only those were given. */
    name: text('name'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /** Unsubscribed from everything the organization sends to lists, whatever each audience says. */
    unsubscribed: boolean('unsubscribed').notNull().default(false),
    /** Values of the organization's contact properties, checked by type on every write. */
    properties: jsonb('properties').$type<Record<string, string | number | boolean>>().notNull().default({}),
    /** The engagement summary: kept past the log's retention, read by rule-based segments. */
    lastDeliveredAt: timestamp('last_delivered_at', { withTimezone: true, mode: 'date' }),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true, mode: 'date' }),
    lastClickedAt: timestamp('last_clicked_at', { withTimezone: true, mode: 'date' }),
    /**
     * Double opt-in (docs/consent.md): since when a confirmation is asked for and not yet given. A
     * pending contact is not subscribed (`unsubscribed` stays true until it confirms, the check
     * below), so every path that skips the unsubscribed skips it too. When no link of it has been
     * mailed for UNCONFIRMED_CONTACT_DAYS it is deleted if the request made it, and otherwise stops
     * being pending, still unsubscribed (its opt-out kept).
     */
    pendingSince: timestamp('pending_since', { withTimezone: true, mode: 'date' }),
    /**
     * When the contact's consent was last confirmed: a copy the contact's reads use (a new request
     * or a clicked link tells "already confirmed" from it without reading the ledger); the ledger's
     * `confirmed` entry is the proof (docs/consent.md). Written with that entry, in its transaction
     * and with its time: by the link's confirmation, and by an import that declares its rows
     * confirmed. An opt-out later does not clear it (its readers check `unsubscribed` beside it).
     */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('contacts_organization_email_unique').on(t.organizationId, t.email),
    check('contacts_pending_unsubscribed', sql`${t.pendingSince} is null or ${t.unsubscribed}`),
    // The unconfirmed-contacts sweep's read: few rows, so the index holds only them.
    index('contacts_pending_idx').on(t.pendingSince).where(sql`${t.pendingSince} is not null`),
    // Substring search of addresses (`search`), fast at millions of contacts.
    index('contacts_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);

/** A contact in an audience, with the spec's per-audience subscription. */
export const audienceMemberships = pgTable(
  'audience_memberships',
  {
    /** What a broadcast copy's unsubscribe token names (docs/broadcasts.md); a merged row's former contact id. */
    id: uuid('id').notNull(),
    audienceId: uuid('audience_id')
      .notNull()
      .references(() => audiences.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    subscribed: boolean('subscribed').notNull().default(true),
    /**
     * Set by the sunset run when the contact had no human open or click for the audience's
     * `sunsetAfterMonths`; broadcasts skip the member while it is set. A human open or click, or a
     * new opt-in, clears it (migration triggers; docs/audiences.md, "Sunset").
     */
    sunsetAt: timestamp('sunset_at', { withTimezone: true, mode: 'date' }),
    /**
     * When the audience's re-engagement email was last stored for this member. It counts as a
     * warning while no sign of life came after it; the run sets the member sunset once the
     * audience's grace period has passed since it (services/sunset/rule.ts).
     */
    reengagedAt: timestamp('reengaged_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.audienceId, t.contactId] }),
    uniqueIndex('audience_memberships_id_unique').on(t.id),
    index('audience_memberships_contact_idx').on(t.contactId),
    // The few sunset members: what a lift looks up per engaged contact, and what the run re-judges.
    index('audience_memberships_sunset_idx').on(t.contactId).where(sql`${t.sunsetAt} is not null`),
  ],
);

/**
 * The ids of contacts merged into one by address (migration 0034): each still names its contact on
 * every route; `audienceId` is the audience the merged row was in.
 */
export const contactAliases = pgTable(
  'contact_aliases',
  {
    id: uuid('id').primaryKey(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    audienceId: uuid('audience_id'),
  },
  (t) => [index('contact_aliases_contact_idx').on(t.contactId)],
);
