import type { Deps } from '../../deps';
import { optOutContact } from '../contacts/opt-out';
import { suppressAddress } from '../suppressions/suppressions';
import { recordUnsubscribedEmail } from './email-record';
import { findRecipient, stateOf } from './recipient';
import { openUnsubscribeToken } from './tokens';
import type { UnsubscribeChannel, UnsubscribeState } from './vocabulary';

type UnsubscribeDeps = Pick<Deps, 'db' | 'clock' | 'jobs' | 'encryptionKey'>;

export interface UnsubscribeOutcome {
  /** Where the person stands now. */
  state: UnsubscribeState;
  /** Whether this call changed anything; a repeat changes nothing and records nothing. */
  changed: boolean;
}

/**
 * A recipient of a broadcast asks to get no more of it, by its token, in one transaction:
 *
 * - the contact is unsubscribed (`contact.updated`), unless it already was;
 * - the email the token came from records `email.unsubscribed` (`{ via, contactId, broadcastId }`)
 *   and counts in its broadcast's `unsubscribed`, the first time only, and only while the email is kept;
 * - with `everything` (stop all mail from this sender) the address goes on the organization's
 *   suppression list (reason `unsubscribe`); an entry already there stands.
 *
 * Null when the token is not one of ours. A deleted contact is nothing to do: answered, not an error.
 */
export async function unsubscribe(deps: UnsubscribeDeps, token: string, options: { everything: boolean; via: UnsubscribeChannel }): Promise<UnsubscribeOutcome | null> {
  const target = openUnsubscribeToken(deps.encryptionKey, token);
  if (!target) return null;
  const outcome = await deps.db.transaction(async (tx) => {
    const recipient = await findRecipient(tx, target.membershipId, { lock: true });
    if (!recipient) return { state: await stateOf(tx, deps.encryptionKey, null), changed: false, queued: 0 };
    const optedOut = await optOutContact(tx, deps, recipient);
    const recorded = await recordUnsubscribedEmail(tx, deps, { emailId: target.emailId, recipient, via: options.via });
    const suppressed = options.everything ? await suppressAddress(tx, deps, { organizationId: recipient.organizationId, email: recipient.email, reason: 'unsubscribe' }) : false;
    const state = await stateOf(tx, deps.encryptionKey, { ...recipient, subscribed: false });
    return { state, changed: optedOut.changed || recorded || suppressed, queued: optedOut.queued };
  });
  // Woken once the deliveries are committed, so the sweep finds them.
  if (outcome.queued > 0) deps.jobs.wake('webhook-delivery', []);
  return { state: outcome.state, changed: outcome.changed };
}
