import { and, eq } from 'drizzle-orm';
import { members } from '@/db/schema';
import type { Deps } from '../../deps';
import { forbidden } from '../../errors';
import type { Principal } from '../shared/principal';
import type { Role } from '../../vocabulary/roles';

/**
 * FORBIDDEN unless the caller is a person signed in to the dashboard whose membership of the
 * organization has one of `roles`: an API key, or a member of another role, is refused with
 * `message`. Read from the membership row, not the principal, so a role changed a moment ago counts.
 */
export async function requireRole(deps: Pick<Deps, 'db'>, principal: Principal, roles: readonly Role[], message: string): Promise<void> {
  if (principal.userId === null || principal.keyId !== null) throw forbidden(message);
  const [membership] = await deps.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, principal.organizationId), eq(members.userId, principal.userId)));
  if (!membership || !roles.includes(membership.role)) throw forbidden(message);
}

export const requireOwner = (deps: Pick<Deps, 'db'>, principal: Principal, message: string) => requireRole(deps, principal, ['owner'], message);
