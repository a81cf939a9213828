/** What a yes in the subscription column means: the column lists who is subscribed, or who unsubscribed (Resend's export: `unsubscribed`). */
export type SubscriptionColumn = 'subscribed' | 'unsubscribed';

const normalise = (value: string) => value.trim().toLowerCase().replace(/[\s_-]+/g, ' ');

// A state named outright means it whatever the column is called.
const SUBSCRIBED = new Set(['subscribed', 'opted in', 'opt in', 'optin', 'active']);
const UNSUBSCRIBED = new Set(['unsubscribed', 'opted out', 'opt out', 'optout']);
// A yes or a no answers the column's own question.
const YES = new Set(['true', 'yes', 'y', '1', 'on', 'x']);
const NO = new Set(['false', 'no', 'n', '0', 'off']);

/**
 * A subscription cell as "subscribed?": yes/no, true/false, 1/0 read by what the column lists,
 * subscribed/unsubscribed (opted in/out) as they say. `undefined` when empty (a new contact is
 * subscribed, an existing one keeps its state), `null` when it is none of these.
 */
export function parseSubscription(value: string, column: SubscriptionColumn = 'subscribed'): boolean | undefined | null {
  const text = normalise(value);
  if (text === '') return undefined;
  if (SUBSCRIBED.has(text)) return true;
  if (UNSUBSCRIBED.has(text)) return false;
  const yes = YES.has(text) ? true : NO.has(text) ? false : null;
  if (yes === null) return null;
  return column === 'subscribed' ? yes : !yes;
}
