import type { Deps } from '../../deps';
import { findRecipient, stateOf, topicOfEmail } from './recipient';
import { openUnsubscribeToken } from './tokens';
import type { UnsubscribeState } from './vocabulary';

/** What the unsubscribe page shows for a token, changing nothing (mail scanners follow links); null when the token is not one of ours. */
export async function describeUnsubscribe(deps: Pick<Deps, 'db' | 'encryptionKey'>, token: string): Promise<UnsubscribeState | null> {
  const target = openUnsubscribeToken(deps.encryptionKey, token);
  if (!target) return null;
  const recipient = await findRecipient(deps.db, target.membershipId, { lock: false, emailId: target.emailId });
  return stateOf(deps.db, deps.encryptionKey, recipient, recipient ? await topicOfEmail(deps.db, target.emailId, recipient) : null);
}
