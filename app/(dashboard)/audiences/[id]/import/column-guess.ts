import type { ColumnMapping } from './contact-rows';

const normalise = (title: string) =>
  title
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]+/g, ' ');

const EMAIL_TITLES = ['email', 'e mail', 'email address', 'e mail address', 'emailaddress', 'mail', 'address', 'contact email'];
const FIRST_NAME_TITLES = ['first name', 'firstname', 'given name', 'forename', 'first'];
const LAST_NAME_TITLES = ['last name', 'lastname', 'surname', 'family name', 'last'];
const NAME_TITLES = ['name', 'full name', 'fullname', 'display name', 'contact name'];
const SUBSCRIBED_TITLES = ['subscribed', 'subscription', 'subscription status', 'subscribe', 'opted in', 'opt in', 'optin', 'consent', 'status'];
const UNSUBSCRIBED_TITLES = ['unsubscribed', 'unsubscribe', 'opted out', 'opt out', 'optout'];

function find(titles: string[], candidates: string[], taken: Set<number>, loose?: (title: string) => boolean): number | null {
  for (const candidate of candidates) {
    const index = titles.findIndex((title, at) => !taken.has(at) && title === candidate);
    if (index >= 0) return index;
  }
  if (!loose) return null;
  const index = titles.findIndex((title, at) => !taken.has(at) && loose(title));
  return index >= 0 ? index : null;
}

/**
 * The columns a header most likely means: "Email", "E-mail address", "Name", "First name",
 * "last_name", "Subscribed", "unsubscribed", "Status"…, any case and spacing; failing an exact
 * title, one that mentions mail (the address) or name. A column "unsubscribed" (Resend's export)
 * is taken as the subscription read the other way round: its yes is an opt-out.
 */
export function guessMapping(header: string[]): ColumnMapping {
  const titles = header.map(normalise);
  const taken = new Set<number>();
  const pick = (index: number | null) => {
    if (index !== null) taken.add(index);
    return index;
  };
  const email = pick(find(titles, EMAIL_TITLES, taken, (title) => title.includes('mail')));
  const firstName = pick(find(titles, FIRST_NAME_TITLES, taken));
  const lastName = pick(find(titles, LAST_NAME_TITLES, taken));
  const name = pick(find(titles, NAME_TITLES, taken, (title) => title.includes('name')));
  const subscribed = find(titles, SUBSCRIBED_TITLES, taken);
  const unsubscribed = subscribed === null ? find(titles, UNSUBSCRIBED_TITLES, taken) : null;
  return {
    email,
    name,
    firstName,
    lastName,
    subscription: subscribed ?? unsubscribed,
    subscriptionColumn: unsubscribed !== null ? 'unsubscribed' : 'subscribed',
  };
}

/** Whether the first record is a header: not when one of its cells is an address already. */
export const looksLikeHeader = (first: string[]) => !first.some((cell) => /\S@\S/.test(cell));
