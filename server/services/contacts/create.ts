import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import type { Principal } from '../shared/principal';
import { contactAddress, type ContactView } from './fields';
import { contactByAddress } from './read';
import { upsertContacts, type ContactInput } from './upsert';

/**
 * Adds a contact, or updates the audience's contact of that address (same id): the rules of a
 * batch row, so a create never removes an opt-out either (PATCH does, on purpose).
 */
export async function createContact(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, principal: Principal, audienceId: string, input: ContactInput): Promise<ContactView> {
  const outcome = await upsertContacts(deps, principal, audienceId, [input], 'one');
  // A row's error names its field when it is a property's (`properties.<key>: …`), else it is the address's.
  const [error] = outcome.errors;
  if (error) throw validationError(error.error.startsWith('properties.') ? error.error : `email: ${error.error}`);
  return outcome.changed[0] ?? contactByAddress(deps, principal, audienceId, contactAddress(input.email));
}
