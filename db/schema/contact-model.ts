import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { contacts } from './audiences';
import { organizations } from './organizations';

/** The types a contact property may have (docs/contacts.md). */
export const CONTACT_PROPERTY_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type ContactPropertyType = (typeof CONTACT_PROPERTY_TYPES)[number];

/** A property value as stored: a date is an ISO 8601 string, checked on the way in. */
export type ContactPropertyValue = string | number | boolean;

/**
 * A custom property contacts of the organization may carry (Resend's contact properties): its key,
 * its type, and the value a template or merge tag uses for a contact that has none. The key and the
 * type are fixed once made, since stored values were checked against them.
 */
export const contactProperties = pgTable(
  'contact_properties',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    type: text('type', { enum: CONTACT_PROPERTY_TYPES }).notNull(),
    fallbackValue: jsonb('fallback_value').$type<ContactPropertyValue | null>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('contact_properties_org_key_unique').on(t.organizationId, t.key), index('contact_properties_org_idx').on(t.organizationId, t.id)],
);

/** Where a contact who never chose stands in a topic, as in Resend: `opt_in`, in it until they leave; `opt_out`, out of it until they join. */
export const TOPIC_DEFAULT_SUBSCRIPTIONS = ['opt_in', 'opt_out'] as const;
export type TopicDefaultSubscription = (typeof TOPIC_DEFAULT_SUBSCRIPTIONS)[number];

/**
 * A kind of mail a contact may leave without leaving all of it (Resend's topics): a broadcast
 * with a topic goes only to the contacts in it. The default subscription is fixed once made: it
 * decides what every contact who never chose has agreed to.
 */
export const topics = pgTable(
  'topics',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    defaultSubscription: text('default_subscription', { enum: TOPIC_DEFAULT_SUBSCRIPTIONS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // Names are what a contact reads on the preference page: two alike would not tell them apart.
  (t) => [index('topics_org_idx').on(t.organizationId, t.id), uniqueIndex('topics_org_name_unique').on(t.organizationId, sql`lower(${t.name})`)],
);

/**
 * A contact's own choice about a topic (docs/contacts.md): in it (`subscribed`) or out of it. A
 * contact with no row here has not chosen, and stands as the topic's default says (in it when `opt_in`).
 */
export const contactTopics = pgTable(
  'contact_topics',
  {
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    subscribed: boolean('subscribed').notNull(),
    /** When the choice last changed: the fan-out tells a contact who left the topic after sending started (skipped) from one who had left before. */
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // By topic: deleting a topic drops its choices, and a broadcast's count reads one topic's choices.
  (t) => [primaryKey({ columns: [t.contactId, t.topicId] }), index('contact_topics_topic_idx').on(t.topicId)],
);
