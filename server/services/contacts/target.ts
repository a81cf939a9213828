import type { Deps } from '../../deps';
import { ownAudience } from '../audiences/crud';
import type { Principal } from '../shared/principal';
import { canonicalContactId } from './aliases';
import { contactAddressOrRefuse } from './fields';
import { contactByAddress } from './read';

/** A contact of an audience as a path names it: by id, or by address (Resend's `/audiences/{id}/contacts/{email}`). */
export type ContactTarget = { id: string } | { email: string };

/** The id of the audience's contact the target names (a merged contact's former id names it too); 404 when the audience or the contact is not the organization's. */
export async function contactIdOf(deps: Pick<Deps, 'db'>, principal: Principal, audienceId: string, target: ContactTarget): Promise<string> {
  if ('id' in target) return canonicalContactId(deps.db, principal.organizationId, target.id);
  const email = contactAddressOrRefuse(target.email, 'contactId');
  const audience = await ownAudience(deps.db, principal, audienceId);
  return (await contactByAddress(deps, principal, audience.id, email)).id;
}
