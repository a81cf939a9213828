import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FORM_SUBMISSION_STATUSES } from '@/server/vocabulary/forms';
import { audiences, contacts } from './audiences';
import { domains } from './domains';
import { organizations } from './organizations';
import { templates } from './templates';

/**
 * A hosted sign-up form (docs/consent.md, "Forms"): what it asks, where a submission goes, and what
 * it promises. Its public endpoint is `POST /f/{publicKey}`; the key is random so nobody can walk
 * the forms of the service. The consent text lives in `form_consent_texts`, one row per version.
 */
export const forms = pgTable(
  'forms',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    name: text('name').notNull(),
    /** The list audience a submission joins; null once that audience was deleted (the form then refuses submissions). */
    audienceId: uuid('audience_id').references(() => audiences.id, { onDelete: 'set null' }),
    /** Topics a submission is put in; a topic deleted since is passed over. */
    topicIds: jsonb('topic_ids').$type<string[]>().notNull().default([]),
    askFirstName: boolean('ask_first_name').notNull().default(false),
    askLastName: boolean('ask_last_name').notNull().default(false),
    /** Contact property keys the form asks for, in the order shown. */
    propertyKeys: jsonb('property_keys').$type<string[]>().notNull().default([]),
    /** The version of `form_consent_texts` shown now. */
    consentVersion: integer('consent_version').notNull(),
    doubleOptIn: boolean('double_opt_in').notNull().default(false),
    /** The verified domain the confirmation mail is sent from; required while double opt-in is on. */
    domainId: uuid('domain_id').references(() => domains.id, { onDelete: 'set null' }),
    /**
     * The organization's template the confirmation mail is written with; null: the built-in text.
     * Deleting a template a form names is refused (templates/in-use.ts); `set null` covers the
     * organization's erasure, which takes both.
     */
    confirmationTemplateId: uuid('confirmation_template_id').references(() => templates.id, { onDelete: 'set null' }),
    successUrl: text('success_url'),
    errorUrl: text('error_url'),
    /** Origins (scheme://host[:port]) whose pages may post to the form. */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('forms_public_key_unique').on(t.publicKey), index('forms_org_idx').on(t.organizationId, t.id)],
);

/**
 * Every consent text a form has shown, kept when the text changes and when the form is deleted:
 * a ledger entry's (form_id, form_version) must always resolve to the words the person agreed to.
 * No foreign key to the form for that reason; the organization's erasure takes them.
 */
export const formConsentTexts = pgTable(
  'form_consent_texts',
  {
    formId: uuid('form_id').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.formId, t.version] })],
);

/** An accepted submission of a form, for the dashboard's list (the proof itself is the ledger). */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: uuid('id').primaryKey(),
    formId: uuid('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    formVersion: integer('form_version').notNull(),
    status: text('status', { enum: FORM_SUBMISSION_STATUSES }).notNull(),
    /** The names and property values given, checked: what the contact got, or gets once the person confirms. */
    values: jsonb('values').$type<{ firstName: string | null; lastName: string | null; properties: Record<string, string | number | boolean> }>().notNull(),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('form_submissions_form_idx').on(t.formId, t.id), index('form_submissions_org_email_idx').on(t.organizationId, t.email)],
);
