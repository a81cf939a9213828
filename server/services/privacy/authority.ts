import type { Deps } from '../../deps';
import { TEAM_MANAGERS } from '../../vocabulary/roles';
import { forbidden } from '../../errors';
import { requireRole } from '../organizations/owners';
import type { Principal } from '../shared/principal';

/**
 * What the organization as a whole answers for: a full_access API key (the procedure already
 * refused sending_access), or in the dashboard the organization's owner, as for the audit log.
 */
export async function requireOrganizationAuthority(deps: Pick<Deps, 'db'>, principal: Principal, message: string): Promise<void> {
  if (principal.keyId !== null) return;
  await requireRole(deps, principal, TEAM_MANAGERS, message);
}

/**
 * A data-subject request reaches live and test data alike (the person's address is in both), so a
 * test key, which never sees live emails, may not make one.
 */
export function requireLiveCaller(principal: Principal): void {
  if (principal.mode === 'test') throw forbidden('A data-subject request covers live data: use a live key');
}
