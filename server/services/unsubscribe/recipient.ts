import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences, contacts, organizations } from '@/db/schema';
import { suppressedAmong } from '../suppressions/suppressions';
import type { UnsubscribeState } from './vocabulary';

export interface Recipient {
  id: string;
  organizationId: string;
  audienceId: string;
  email: string;
  subscribed: boolean;
  organizationName: string;
  audienceName: string;
}

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

export async function stateOf(db: Db, encryptionKey: Buffer, recipient: Recipient | null): Promise<UnsubscribeState> {
  if (!recipient) return { status: 'contact-deleted' };
  const suppressed = await suppressedAmong(db, encryptionKey, recipient.organizationId, [recipient.email]);
  return {
    status: recipient.subscribed ? 'subscribed' : 'unsubscribed',
    email: recipient.email,
    organizationName: recipient.organizationName,
    audienceName: recipient.audienceName,
    stoppedAll: suppressed.size > 0,
  };
}
