import { sql, type SQL } from 'drizzle-orm';
import { audienceMemberships, contacts, contactTopics, type TopicDefaultSubscription } from '@/db/schema';
import { validationError } from '../../errors';
import { AddressError, parseMailbox } from '../shared/addresses';

/** A contact as an audience holds it: the contact, with the membership's subscription and time of joining. */
export interface AudienceContactRow {
  id: string;
  email: string;
  name: string | null;
  subscribed: boolean;
  pending: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The columns of an AudienceContactRow, for a select from `audience_memberships` joined to
 * `contacts`: changed when either the contact or its membership last changed.
 */
export const audienceContactColumns = {
  id: contacts.id,
  email: contacts.email,
  name: contacts.name,
  // A pending contact (double opt-in) is not subscribed anywhere until it confirms.
  subscribed: sql<boolean>`(${audienceMemberships.subscribed} and ${contacts.pendingSince} is null)`.mapWith(audienceMemberships.subscribed),
  pending: sql<boolean>`(${contacts.pendingSince} is not null)`.mapWith(audienceMemberships.subscribed),
  createdAt: audienceMemberships.createdAt,
  updatedAt: sql<Date>`greatest(${audienceMemberships.updatedAt}, ${contacts.updatedAt})`.mapWith(contacts.updatedAt),
};

export interface ContactView {
  id: string;
  email: string;
  name: string | null;
  /** In this audience, and not pending. */
  subscribed: boolean;
  /** Asked to confirm (double opt-in) and not confirmed yet. */
  pending: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A contact as a hand-written statement returns it (SQL column names, times as text). */
export interface ContactSqlRow {
  id: string;
  email: string;
  name: string | null;
  subscribed: boolean;
  pending: boolean;
  created_at: string;
  updated_at: string;
}

export const contactView = (row: AudienceContactRow): ContactView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  subscribed: row.subscribed,
  pending: row.pending,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
});

/**
 * A contact's address as stored, with the parser sends use (IDN domains become ASCII): lowercase,
 * the address alone. Throws AddressError with a reason a person can act on.
 */
export function contactAddress(input: string): string {
  const mailbox = parseMailbox(input.trim());
  if (mailbox.name !== null) throw new AddressError(`"${input}": give the address alone and the name in "name"`);
  return mailbox.address.toLowerCase();
}

/** A contact's address as stored (contactAddress), or a 400 naming the field it came in. */
export function contactAddressOrRefuse(value: string, field: string): string {
  try {
    return contactAddress(value);
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`${field}: ${error.message}`);
    throw error;
  }
}

/** The topic a broadcast is sent under, as its recipients are judged by it. */
export interface BroadcastTopic {
  id: string;
  defaultSubscription: TopicDefaultSubscription;
}

/**
 * Whether the contact is in the topic: by its own choice, else by the topic's default. Written as
 * the one `exists` (or `not exists`) its default calls for, so in a WHERE the planner makes it a
 * semi-join (anti-join) over the topic's choices rather than a lookup per member.
 */
export function inTopic(topic: BroadcastTopic): SQL {
  const choice = sql`select 1 from ${contactTopics} where ${contactTopics.contactId} = ${contacts.id} and ${contactTopics.topicId} = ${topic.id}`;
  // opt_in: in unless they left it; opt_out: out unless they joined it.
  return topic.defaultSubscription === 'opt_in' ? sql`not exists (${choice} and not ${contactTopics.subscribed})` : sql`exists (${choice} and ${contactTopics.subscribed})`;
}

/**
 * Whether a member gets the audience's broadcasts: subscribed in the audience, not sunset there
 * (no human open or click for the audience's sunset months: services/sunset), not unsubscribed
 * from everything, and, for a broadcast under a topic, in the topic. For a select from
 * `audience_memberships` joined to `contacts`.
 */
export const receivesBroadcasts = (topic: BroadcastTopic | null): SQL =>
  topic
    ? sql`(${audienceMemberships.subscribed} and ${audienceMemberships.sunsetAt} is null and not ${contacts.unsubscribed} and ${inTopic(topic)})`
    : sql`(${audienceMemberships.subscribed} and ${audienceMemberships.sunsetAt} is null and not ${contacts.unsubscribed})`;

/**
 * `receivesBroadcasts(topic)` for a select that left-joins the member's choice about the topic
 * (`contact_topics` on the contact and the topic): a few hundred members (a fan-out chunk) each
 * probe the choices' primary key, where an `exists` could be planned as a hash of all the topic's choices.
 */
export const receivesBroadcastsJoined = (topic: BroadcastTopic): SQL =>
  sql`(${audienceMemberships.subscribed} and ${audienceMemberships.sunsetAt} is null and not ${contacts.unsubscribed} and coalesce(${contactTopics.subscribed}, ${topic.defaultSubscription === 'opt_in' ? sql`true` : sql`false`}))`;
