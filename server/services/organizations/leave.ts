import type { Deps } from '../../deps';
import { forbidden } from '../../errors';
import { endMembership } from '../members/end-membership';
import type { Principal } from '../shared/principal';

/**
 * A member leaves the organization they act for. The owner may not (it would be left without one):
 * they transfer ownership first, or delete the organization. Nothing else of theirs ends: their
 * sessions act for another organization of theirs from the next request (the active-organization
 * cookie is honoured only while they belong), or for a new one of their own when they belong to none.
 */
export async function leaveOrganization(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<void> {
  if (principal.userId === null || principal.keyId !== null) throw forbidden('This is done by people, signed in to the dashboard');
  const userId = principal.userId;
  await deps.db.transaction((tx) => endMembership(tx, deps, principal, userId, 'left'));
}
