import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences, automationEmails, automations, broadcasts, contacts, emails, organizations, topics } from '@/db/schema';
import { suppressedAmong } from '../suppressions/suppressions';
import { topicSubscriptionsOf } from '../topics/subscriptions';
import type { UnsubscribeState } from './vocabulary';

export interface Recipient {
  id: string;
  organizationId: string;
  /** The audience the token's membership is of; null for an automation's email, whose token names the contact (its list is all list mail). */
  audienceId: string | null;
  email: string;
  /** In the audience the token's membership is of; for an automation's email, not unsubscribed from list mail. */
  subscribed: boolean;
  /** The contact's global flag: unsubscribed from everything the organization sends to lists. */
  unsubscribedAll: boolean;
  organizationName: string;
  /** The audience's name; for an automation's email, the automation's. */
  audienceName: string;
}

/** The topic of the broadcast an email belongs to: what its unsubscribe leaves. */
export type EmailTopic = { id: string; name: string } | null;

/**
 * The contact a token names, in the audience the token's membership is of, with the names the page
 * shows; null once the contact has left the audience. `lock` takes the membership's row for the
 * caller's transaction: every unsubscribe of one contact from one audience (two clicks, a one-click
 * POST beside a mailto) then runs one after the other, so "the first time" is decided once.
 */
export async function findRecipient(db: Db, membershipId: string, options: { lock: boolean; emailId: string }): Promise<Recipient | null> {
  const query = db
    .select({
      id: contacts.id,
      organizationId: contacts.organizationId,
      audienceId: audienceMemberships.audienceId,
      email: contacts.email,
      subscribed: audienceMemberships.subscribed,
      unsubscribedAll: contacts.unsubscribed,
      organizationName: organizations.name,
      audienceName: audiences.name,
    })
    .from(audienceMemberships)
    .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
    .innerJoin(audiences, eq(audiences.id, audienceMemberships.audienceId))
    .innerJoin(organizations, eq(organizations.id, contacts.organizationId))
    .where(eq(audienceMemberships.id, membershipId));
  const [row] = await (options.lock ? query.for('update', { of: audienceMemberships }) : query);
  return row ?? (await automationRecipient(db, membershipId, options));
}

/**
 * An automation's email names the contact itself, with the email (`automation_emails` pairs the
 * two, so a token made for one contact's email names no other): its unsubscribe leaves the email's
 * topic, else all list mail (the contact's global flag), since an automation sends to contacts, not to an audience.
 */
async function automationRecipient(db: Db, contactId: string, options: { lock: boolean; emailId: string }): Promise<Recipient | null> {
  const query = db
    .select({
      id: contacts.id,
      organizationId: contacts.organizationId,
      email: contacts.email,
      unsubscribedAll: contacts.unsubscribed,
      organizationName: organizations.name,
      audienceName: automations.name,
    })
    .from(automationEmails)
    .innerJoin(contacts, eq(contacts.id, automationEmails.contactId))
    .innerJoin(automations, eq(automations.id, automationEmails.automationId))
    .innerJoin(organizations, eq(organizations.id, contacts.organizationId))
    .where(and(eq(automationEmails.emailId, options.emailId), eq(automationEmails.contactId, contactId)));
  const [row] = await (options.lock ? query.for('update', { of: contacts }) : query);
  return row ? { ...row, audienceId: null, subscribed: !row.unsubscribedAll } : null;
}

/**
 * The topic the email was sent under: its broadcast's (an automation's email: its step's), while the topic is there. Null for a
 * broadcast without one, and when the email is gone (its retention ran out) or is not this
 * contact's copy: the token then leaves the audience, as before topics.
 */
export async function topicOfEmail(db: Db, emailId: string, recipient: Pick<Recipient, 'id' | 'organizationId' | 'audienceId'>): Promise<EmailTopic> {
  if (recipient.audienceId === null) {
    const [step] = await db
      .select({ id: topics.id, name: topics.name })
      .from(automationEmails)
      .innerJoin(topics, eq(topics.id, automationEmails.topicId))
      .where(and(eq(automationEmails.emailId, emailId), eq(automationEmails.contactId, recipient.id)));
    return step ?? null;
  }
  const [row] = await db
    .select({ id: topics.id, name: topics.name })
    .from(emails)
    .innerJoin(broadcasts, eq(broadcasts.id, emails.broadcastId))
    .innerJoin(topics, eq(topics.id, broadcasts.topicId))
    .where(and(eq(emails.id, emailId), eq(emails.contactId, recipient.id), eq(emails.organizationId, recipient.organizationId)));
  return row ?? null;
}

export async function stateOf(db: Db, encryptionKey: Buffer, recipient: Recipient | null, topic: EmailTopic): Promise<UnsubscribeState> {
  if (!recipient) return { status: 'contact-deleted' };
  const suppressed = await suppressedAmong(db, encryptionKey, recipient.organizationId, [recipient.email]);
  const onPage = (await topicSubscriptionsOf(db, recipient, recipient.id)).map((row) => ({ id: row.id, name: row.name, description: row.description, subscribed: row.subscription === 'opt_in' }));
  const getsIt = topic ? (onPage.find((row) => row.id === topic.id)?.subscribed ?? false) : recipient.subscribed;
  return {
    status: getsIt && !recipient.unsubscribedAll ? 'subscribed' : 'unsubscribed',
    email: recipient.email,
    organizationName: recipient.organizationName,
    audienceName: recipient.audienceName,
    stoppedAll: suppressed.size > 0,
    topic,
    inAudience: recipient.subscribed,
    unsubscribedAll: recipient.unsubscribedAll,
    topics: onPage,
  };
}
