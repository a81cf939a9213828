import type { DefaultSubscription } from '../types';

/**
 * A topic's default subscription in words: its label, and what it means for a contact who never
 * chose. As in Resend and the server (`receivesBroadcasts`): `opt_in`, such a contact is in the
 * topic (opted in) until it leaves; `opt_out`, it is out until it joins.
 */
export const DEFAULT_SUBSCRIPTIONS: Record<DefaultSubscription, { label: string; meaning: string }> = {
  opt_in: { label: 'Opt-in', meaning: 'Contacts receive it until they leave the topic.' },
  opt_out: { label: 'Opt-out', meaning: 'Contacts receive it only once they join the topic.' },
};
