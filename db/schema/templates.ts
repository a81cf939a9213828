import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/** A variable declared Resend's way (`variables: [{ key, type, fallback_value }]`): its type, and the value used when a send does not give it. */
export interface DeclaredVariable {
  key: string;
  type: 'string' | 'number';
  /** Null: a send must give the variable. */
  fallbackValue: string | number | null;
}

/** The changes saved to a template with drafts since it was last published: what it will send once published. */
export interface TemplateDraft {
  subject: string;
  html: string | null;
  text: string | null;
  variables: string[];
  declaredVariables: DeclaredVariable[];
  /** Absent in drafts saved before templates had them (none then). */
  from?: string | null;
  replyTo?: string[];
}

/**
 * A stored message with placeholders, rendered with variables when sent or previewed. The subject,
 * bodies and variables are what a send renders; a template with drafts keeps later changes in
 * `draft` until they are published.
 */
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
    /** Variables declared with a type and a fallback (Resend's); a send's values are checked against them. */
    declaredVariables: jsonb('declared_variables').$type<DeclaredVariable[]>().notNull().default([]),
    /** The sender a send by this template uses when it gives none (Resend's template `from`). */
    from: text('from'),
    /** The reply-to addresses a send by this template uses when it gives none (Resend's `reply_to`). */
    replyTo: text('reply_to').array().notNull().default([]),
    /** Resend's template alias: another name for it, unique within the organization; not drafted (like `name`). */
    alias: text('alias'),
    /** Whether changes wait for a publish (created with `draft: true`, or published once); false: a change is sent at once. */
    drafts: boolean('drafts').notNull().default(false),
    /** When what a send renders was published; null only for a template with drafts never published, which cannot be sent. */
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    /** Changes saved since the last publish (templates with drafts only); null when there are none. */
    draft: jsonb('draft').$type<TemplateDraft>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('templates_org_idx').on(t.organizationId, t.id), uniqueIndex('templates_org_alias_idx').on(t.organizationId, t.alias)],
);
