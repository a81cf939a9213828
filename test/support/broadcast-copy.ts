import { audiences, broadcasts, emails } from '@/db/schema';
import { newId } from '@/server/ids';
import { sealUnsubscribeToken, unsubscribeKeyFrom } from '@/server/services/unsubscribe/tokens';
import type { TestApp } from './app';
import { insertMember } from './members';

/** An organization with one audience and one member in it, written straight into the database. */
export interface SeededMember {
  organizationId: string;
  audienceId: string;
  contactId: string;
  membershipId: string;
}

export async function seedAudienceMember(app: TestApp, input: { address: string; organization?: string; audience?: string }): Promise<SeededMember> {
  const db = app.runtime.deps.db;
  const { organizationId } = await app.createOrg({ name: input.organization ?? 'Acme' });
  const now = app.clock.now();
  const audienceId = newId();
  await db.insert(audiences).values({ id: audienceId, organizationId, name: input.audience ?? 'Weekly news', contactCount: 1, createdAt: now });
  const { contactId, membershipId } = await insertMember(db, { organizationId, audienceId, email: input.address, name: 'Ada', now });
  return { organizationId, audienceId, contactId, membershipId };
}

/**
 * The member's copy of a broadcast as the fan-out leaves it (delivered, not merged yet), sent
 * under `topicId` when given, and the unsubscribe token its links carry.
 */
export async function seedBroadcastCopy(app: TestApp, member: SeededMember & { address: string }, options: { topicId?: string | null } = {}) {
  const db = app.runtime.deps.db;
  const now = app.clock.now();
  const broadcastId = newId();
  const emailId = newId();
  await db
    .insert(broadcasts)
    .values({ id: broadcastId, organizationId: member.organizationId, audienceId: member.audienceId, topicId: options.topicId ?? null, name: 'November', from: 'Acme <news@acme.example.com>', status: 'sending', createdAt: now, updatedAt: now });
  await db.insert(emails).values({
    id: emailId,
    organizationId: member.organizationId,
    mode: 'live',
    from: 'Acme <news@acme.example.com>',
    fromAddress: 'news@acme.example.com',
    to: [member.address],
    cc: [],
    bcc: [],
    replyTo: [],
    recipientAddresses: [member.address],
    subject: 'November news',
    headers: {},
    tags: [],
    tagKeys: [],
    trackOpens: false,
    trackClicks: false,
    status: 'delivered',
    broadcastId,
    contactId: member.contactId,
    createdAt: now,
    updatedAt: now,
  });
  const token = sealUnsubscribeToken(unsubscribeKeyFrom(app.runtime.deps.encryptionKey), { membershipId: member.membershipId, emailId });
  return { broadcastId, emailId, token };
}
