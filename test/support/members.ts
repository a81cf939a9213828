import { audienceMemberships, contacts } from '@/db/schema';
import type { Db } from '@/db/client';
import { newId } from '@/server/ids';

/**
 * A contact written straight into an audience, as seeds need it: the contact (one per address; an
 * existing one is reused), its membership with the spec's subscription, and no counts moved.
 * Answers the contact's id and the membership's (what an unsubscribe token names).
 */
export async function insertMember(
  db: Db,
  input: { organizationId: string; audienceId: string; email: string; name?: string | null; subscribed?: boolean; now: Date; contactId?: string; membershipId?: string },
): Promise<{ contactId: string; membershipId: string }> {
  const [contact] = await db
    .insert(contacts)
    .values({ id: input.contactId ?? newId(), organizationId: input.organizationId, email: input.email, name: input.name ?? null, createdAt: input.now, updatedAt: input.now })
    .onConflictDoUpdate({ target: [contacts.organizationId, contacts.email], set: { updatedAt: input.now } })
    .returning({ id: contacts.id });
  const membershipId = input.membershipId ?? newId();
  await db.insert(audienceMemberships).values({
    id: membershipId,
    audienceId: input.audienceId,
    contactId: contact!.id,
    organizationId: input.organizationId,
    subscribed: input.subscribed ?? true,
    createdAt: input.now,
    updatedAt: input.now,
  });
  return { contactId: contact!.id, membershipId };
}
