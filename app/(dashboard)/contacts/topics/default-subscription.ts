import type { DefaultSubscription } from '../types';

/** A topic's default subscription in words: its label, and what it means for a contact who never chose. */
export const DEFAULT_SUBSCRIPTIONS: Record<DefaultSubscription, { label: string; meaning: string }> = {
  opt_in: { label: 'Opt-in', meaning: 'Contacts receive it only once they join the topic.' },
  opt_out: { label: 'Opt-out', meaning: 'Contacts receive it until they leave the topic.' },
};
