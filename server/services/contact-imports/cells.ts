import type { SubscriptionColumnKind } from '../../vocabulary/contact-imports';

/*
 * How an import reads the cells of a subscription or a yes/no column: the one reading of the
 * dashboard's preview (app/(dashboard)/audiences/[id]/import) and of the import itself. Pure: the
 * browser runs it too.
 */

const normalise = (value: string) => value.trim().toLowerCase().replace(/[\s_-]+/g, ' ');

// A state named outright means it whatever the column is called.
const SUBSCRIBED = new Set(['subscribed', 'opted in', 'opt in', 'optin', 'active']);
const UNSUBSCRIBED = new Set(['unsubscribed', 'opted out', 'opt out', 'optout']);
// A yes or a no answers the column's own question.
const YES = new Set(['true', 'yes', 'y', '1', 'on', 'x']);
const NO = new Set(['false', 'no', 'n', '0', 'off']);

/** A yes/no cell: true, false, undefined when empty, null when it is neither. */
export function parseYesNo(value: string): boolean | undefined | null {
  const text = normalise(value);
  if (text === '') return undefined;
  return YES.has(text) ? true : NO.has(text) ? false : null;
}

/**
 * A subscription cell as "subscribed?": yes/no, true/false, 1/0 read by what the column lists,
 * subscribed/unsubscribed (opted in/out) as they say. `undefined` when empty (a new contact is
 * subscribed, an existing one keeps its state), `null` when it is none of these.
 */
export function parseSubscription(value: string, column: SubscriptionColumnKind = 'subscribed'): boolean | undefined | null {
  const text = normalise(value);
  if (text === '') return undefined;
  if (SUBSCRIBED.has(text)) return true;
  if (UNSUBSCRIBED.has(text)) return false;
  const yes = parseYesNo(text);
  if (yes === null || yes === undefined) return null;
  return column === 'subscribed' ? yes : !yes;
}

/** Why a subscription cell was not read, as the preview and the import both say it. */
export const unreadableSubscription = (column: SubscriptionColumnKind, raw: string) => `${column}: "${raw}" is not yes or no (true/false, 1/0, subscribed/unsubscribed)`;

/** Why a row with the wrong number of fields was not read. */
export const wrongColumnCount = (found: number, expected: number) => `has ${found === 1 ? '1 column' : `${found} columns`} instead of ${expected}`;

/** Why a row without an address was not read. */
export const NO_ADDRESS = 'no email address';
