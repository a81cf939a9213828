/** The longest name, first name or last name a contact may have. */
export const CONTACT_NAME_MAX = 200;

/** A contact's names: `name` as given, and Resend's first and last names. */
export interface ContactNames {
  name: string | null;
  firstName: string | null;
  lastName: string | null;
}

const joined = (firstName: string | null, lastName: string | null): string | null => [firstName, lastName].filter((part) => part).join(' ') || null;

/**
 * The names after a write (undefined: not given). `name` is kept as given; when it is not given, a
 * name that was only ever "first last" follows the first and last names, and one a person typed
 * is left alone.
 */
export function namesAfter(current: ContactNames, given: { name?: string | null; firstName?: string | null; lastName?: string | null }): ContactNames {
  const firstName = given.firstName === undefined ? current.firstName : given.firstName;
  const lastName = given.lastName === undefined ? current.lastName : given.lastName;
  if (given.name !== undefined) return { name: given.name, firstName, lastName };
  const derived = current.name === null || current.name === joined(current.firstName, current.lastName);
  return { name: derived ? joined(firstName, lastName) : current.name, firstName, lastName };
}

export const NO_NAMES: ContactNames = { name: null, firstName: null, lastName: null };
