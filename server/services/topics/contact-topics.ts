import type { Deps } from '../../deps';
import { byPrincipal, recordAudit } from '../audit/record';
import { declareConsentSource, sourceOfPrincipal } from '../consent/source';
import { ownContact } from '../contacts/own';
import type { ContactTarget } from '../contacts/target';
import type { Principal } from '../shared/principal';
import { setTopicSubscriptions, topicSubscriptionsOf, type ContactTopicView, type TopicChoice } from './subscriptions';
import { logConsentChanges } from '../consent/events';

/** `GET /contacts/{idOrEmail}/topics`: every topic of the organization, with where the contact stands. */
export async function getContactTopics(deps: Pick<Deps, 'db'>, principal: Principal, target: ContactTarget): Promise<ContactTopicView[]> {
  const contact = await ownContact(deps.db, principal, target);
  return topicSubscriptionsOf(deps.db, principal, contact.id);
}

/**
 * `PATCH /contacts/{idOrEmail}/topics`: the contact's choices for the topics named, the others as
 * they were. Recorded as `contact.topics_updated` with the topics whose state changed (none: no
 * entry). Answers every topic, as GET does.
 */
export async function updateContactTopics(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, target: ContactTarget, choices: TopicChoice[]): Promise<ContactTopicView[]> {
  return deps.db.transaction(async (tx) => {
    await declareConsentSource(tx, sourceOfPrincipal(principal));
    // Locked, so two writes to one contact's topics record their changes one after the other.
    const contact = await ownContact(tx, principal, target, { lock: true });
    const changes = await setTopicSubscriptions(tx, deps, principal, contact.id, choices);
    if (changes.length > 0) {
      await recordAudit(tx, deps, {
        organizationId: principal.organizationId,
        by: byPrincipal(principal),
        action: 'contact.topics_updated',
        target: { type: 'contact', id: contact.id, label: contact.email },
        details: { topics: changes },
      });
    }
    await logConsentChanges(tx, deps);
    return topicSubscriptionsOf(tx, principal, contact.id);
  });
}
