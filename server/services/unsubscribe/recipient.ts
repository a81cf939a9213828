import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences, broadcasts, contacts, emails, organizations, topics } from '@/db/schema';
import { suppressedAmong } from '../suppressions/suppressions';
import { topicSubscriptionsOf } from '../topics/subscriptions';
import type { UnsubscribeState } from './vocabulary';

export interface Recipient {
  id: string;
  organizationId: string;
  audienceId: string;
  email: string;
  /** In the audience the token's membership is of. */
  subscribed: boolean;
  /** The contact's global flag: unsubscribed from everything the organization sends to lists. */
  unsubscribedAll: boolean;
  organizationName: string;
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
export async function findRecipient(db: Db, membershipId: string, options: { lock: boolean }): Promise<Recipient | null> {
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
  return row ?? null;
}

/**
 * The topic the email was sent under: its broadcast's, while the topic is there. Null for a
 * broadcast without one, and when the email is gone (its retention ran out) or is not this
 * contact's copy: the token then leaves the audience, as before topics.
 */
export async function topicOfEmail(db: Db, emailId: string, recipient: Pick<Recipient, 'id' | 'organizationId'>): Promise<EmailTopic> {
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
