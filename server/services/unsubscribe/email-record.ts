import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationEmails, emailEvents, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { recordEmailEvents } from '../emails/events';
import type { Recipient } from './recipient';
import type { UnsubscribeChannel } from './vocabulary';

/**
 * The unsubscribe as a signal about the message it came from: `email.unsubscribed` in that
 * email's history and the event log, and the broadcast's `unsubscribed` count moved, both the
 * first time only (the count is of emails, each once). Nothing when the email is gone (its
 * retention ran out) or is not this contact's copy of a broadcast or an automation's email (which
 * counts in no broadcast). Answers whether it recorded.
 */
export async function recordUnsubscribedEmail(
  tx: Db,
  deps: Pick<Deps, 'clock' | 'jobs'>,
  input: { emailId: string; recipient: Recipient; via: UnsubscribeChannel },
): Promise<boolean> {
  const [email] = await tx
    .select({ id: emails.id, broadcastId: emails.broadcastId })
    .from(emails)
    .where(and(eq(emails.id, input.emailId), eq(emails.contactId, input.recipient.id), eq(emails.organizationId, input.recipient.organizationId)));
  if (!email) return false;
  // An automation's email (its token names the contact): recorded in its history, no broadcast to count in.
  const automated = email.broadcastId ? null : ((await tx.select({ automationId: automationEmails.automationId }).from(automationEmails).where(eq(automationEmails.emailId, email.id)))[0] ?? null);
  if (!email.broadcastId && !automated) return false;
  // The caller holds the contact's row lock, so no other unsubscribe of this email is between this read and the insert.
  const [earlier] = await tx
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(and(eq(emailEvents.emailId, email.id), eq(emailEvents.type, 'email.unsubscribed')))
    .limit(1);
  if (earlier) return false;
  await recordEmailEvents(tx, deps, email, [
    automated
      ? { type: 'email.unsubscribed', recipient: input.recipient.email, data: { via: input.via, contactId: input.recipient.id, automationId: automated.automationId } }
      : { type: 'email.unsubscribed', recipient: input.recipient.email, data: { via: input.via, contactId: input.recipient.id, broadcastId: email.broadcastId }, counts: { unsubscribed: 1 } },
  ]);
  return true;
}
