import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { optOutContact, unsubscribeFromEverything } from '../contacts/opt-out';
import { suppressAddress } from '../suppressions/suppressions';
import { changeTopics, leaveTopic } from '../topics/subscriptions';
import { declareConsentSource } from '../consent/source';
import type { ConsentVia } from '../../vocabulary/consent';
import { recordUnsubscribedEmail } from './email-record';
import { findRecipient, stateOf, topicOfEmail, type EmailTopic, type Recipient } from './recipient';
import { openUnsubscribeToken } from './tokens';
import type { PreferenceChoices, UnsubscribeChannel, UnsubscribeRequest, UnsubscribeState } from './vocabulary';
import { logConsentChanges } from '../consent/events';

type UnsubscribeDeps = Pick<Deps, 'db' | 'clock' | 'jobs' | 'encryptionKey'>;

export interface UnsubscribeOutcome {
  /** Where the person stands now. */
  state: UnsubscribeState;
  /** Whether this call changed anything; a repeat changes nothing and records nothing. */
  changed: boolean;
}

/** What one step of an unsubscribe did: whether it changed anything, and the webhook deliveries it queued. */
type Step = { changed: boolean; queued: number };

/**
 * A recipient of a broadcast asks to get no more of it, by its token, in one transaction:
 *
 * - they leave what the email was sent under: its broadcast's topic (their choice for the topic
 *   becomes opt_out), else the audience (`contact.updated`), unless they had left it already;
 * - or, from the preference page, the topics they unticked are left and those ticked joined (and
 *   the audience left when it was offered and unticked);
 * - the email the token came from records `email.unsubscribed` (`{ via, contactId, broadcastId }`)
 *   and counts in its broadcast's `unsubscribed`, the first time only, only while the email is
 *   kept, and (from the preference page) only when they left what it was sent under;
 * - with `everything` (stop all mail from this sender) they leave the audience, the contact is
 *   unsubscribed from everything, and the address goes on the organization's suppression list
 *   (reason `unsubscribe`); an entry already there stands.
 *
 * Null when the token is not one of ours. A deleted contact is nothing to do: answered, not an error.
 */
export async function unsubscribe(deps: UnsubscribeDeps, token: string, request: UnsubscribeRequest): Promise<UnsubscribeOutcome | null> {
  const target = openUnsubscribeToken(deps.encryptionKey, token);
  if (!target) return null;
  const outcome = await deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, {
      via: CONSENT_VIA_OF[request.via],
      emailId: target.emailId,
      clientAddress: request.client?.address ?? null,
      userAgent: request.client?.userAgent ?? null,
      at: deps.clock.now(),
    });
    const recipient = await findRecipient(tx, target.membershipId, { lock: true, emailId: target.emailId });
    if (!recipient) return { state: await stateOf(tx, deps.encryptionKey, null, null), changed: false, queued: 0 };
    const topic = await topicOfEmail(tx, target.emailId, recipient);
    const { step, leftIt } = await (request.everything
      ? everything(tx, deps, recipient)
      : request.preferences
        ? preferences(tx, deps, recipient, topic, request.preferences)
        : leave(tx, deps, recipient, topic));
    const recorded = leftIt ? await recordUnsubscribedEmail(tx, deps, { emailId: target.emailId, recipient, via: request.via }) : false;
    const state = await stateOf(tx, deps.encryptionKey, await findRecipient(tx, target.membershipId, { lock: false, emailId: target.emailId }), topic);
    await logConsentChanges(tx, deps);
    return { state, changed: step.changed || recorded, queued: step.queued };
  });
  // Woken once the deliveries are committed, so the sweep finds them.
  if (outcome.queued > 0) deps.jobs.wake('webhook-delivery', []);
  return { state: outcome.state, changed: outcome.changed };
}

/** How each channel is named in the consent ledger: the page is one page, with or without topics. */
const CONSENT_VIA_OF: Record<UnsubscribeChannel, ConsentVia> = { 'one-click': 'one_click', page: 'preference_page', mailto: 'mailto' };

type Outcome = { step: Step; leftIt: boolean };

/** No more of what the email was sent under: its topic, else the audience (an automation's email: all list mail). */
async function leave(tx: Db, deps: UnsubscribeDeps, recipient: Recipient, topic: EmailTopic): Promise<Outcome> {
  if (topic) return { step: { changed: await leaveTopic(tx, deps, recipient, topic.id), queued: 0 }, leftIt: true };
  return { step: await leaveList(tx, deps, recipient), leftIt: true };
}

/** Out of the list the email came from: the audience, or for an automation's email every list (the contact's global flag). */
async function leaveList(tx: Db, deps: UnsubscribeDeps, recipient: Recipient): Promise<Step> {
  if (recipient.audienceId !== null) return optOutContact(tx, deps, { ...recipient, audienceId: recipient.audienceId });
  return { changed: await unsubscribeFromEverything(tx, deps, recipient.id), queued: 0 };
}

/** Nothing more from the sender: out of the audience, unsubscribed from everything, suppressed. */
async function everything(tx: Db, deps: UnsubscribeDeps, recipient: Recipient): Promise<Outcome> {
  const optedOut = await leaveList(tx, deps, recipient);
  const global = await unsubscribeFromEverything(tx, deps, recipient.id);
  const suppressed = await suppressAddress(tx, deps, { organizationId: recipient.organizationId, email: recipient.email, reason: 'unsubscribe' });
  return { step: { changed: optedOut.changed || global || suppressed, queued: optedOut.queued }, leftIt: true };
}

/**
 * The preference page's form. Only what it showed is touched (a topic made since the page was
 * opened keeps the contact's state), and only the organization's topics. The audience is left
 * when the page offered it (the email was sent to it without a topic) and it was unticked; the
 * page never subscribes a contact to an audience again (only the organization does).
 */
async function preferences(tx: Db, deps: UnsubscribeDeps, recipient: Recipient, topic: EmailTopic, choices: PreferenceChoices): Promise<Outcome> {
  const ticked = new Set(choices.ticked.topics.map((id) => id.toLowerCase()));
  const shown = [...new Set(choices.shown.topics.map((id) => id.toLowerCase()))];
  const changes = await changeTopics(
    tx,
    deps,
    recipient,
    shown.map((id) => ({ id, subscription: ticked.has(id) ? 'opt_in' : 'opt_out' })),
  );
  const leavesAudience = !topic && choices.shown.audience && !choices.ticked.audience;
  const optedOut = leavesAudience ? await leaveList(tx, deps, recipient) : { changed: false, queued: 0 };
  const leftIt = topic ? changes.some((change) => change.id === topic.id && change.to === 'opt_out') : optedOut.changed;
  return { step: { changed: changes.length > 0 || optedOut.changed, queued: optedOut.queued }, leftIt };
}
