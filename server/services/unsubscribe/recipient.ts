import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audiences, contacts, organizations } from '@/db/schema';
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
 * The contact a token names, with the names the page shows; null once the contact is deleted.
 * `lock` takes the contact's row for the caller's transaction: every unsubscribe of one contact
 * (two clicks, a one-click POST beside a mailto) then runs one after the other, so "the first
 * time" is decided once.
 */
export async function findRecipient(db: Db, contactId: string, options: { lock: boolean }): Promise<Recipient | null> {
  const query = db
    .select({
      id: contacts.id,
      organizationId: contacts.organizationId,
      audienceId: contacts.audienceId,
      email: contacts.email,
      subscribed: contacts.subscribed,
      organizationName: organizations.name,
      audienceName: audiences.name,
    })
    .from(contacts)
    .innerJoin(audiences, eq(audiences.id, contacts.audienceId))
    .innerJoin(organizations, eq(organizations.id, contacts.organizationId))
    .where(eq(contacts.id, contactId));
  const [row] = await (options.lock ? query.for('update', { of: contacts }) : query);
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
