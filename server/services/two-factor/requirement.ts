import { and, eq } from 'drizzle-orm';
import { members, organizations, users } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict, forbidden, notFound } from '../../errors';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import { mayRequireTwoFactor } from './roles';

const PEOPLE_ONLY = 'Two-factor sign-in is a setting of people signed in to the dashboard, not of API keys';

/** The signed-in person behind a principal, or FORBIDDEN for an API key. */
function personOf(principal: Principal): string {
  if (principal.userId === null || principal.keyId !== null) throw forbidden(PEOPLE_ONLY);
  return principal.userId;
}

async function membershipOf(deps: Pick<Deps, 'db'>, principal: Principal, userId: string) {
  const [row] = await deps.db
    .select({ role: members.role, requireTwoFactor: organizations.requireTwoFactor, name: organizations.name, twoFactorEnabled: users.twoFactorEnabled })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, principal.organizationId), eq(members.userId, userId)));
  if (!row) throw notFound('Organization');
  return row;
}

/** What the account page and the dashboard shell show: the person's own state and the organization's rule. */
export async function twoFactorStatus(deps: Pick<Deps, 'db'>, principal: Principal) {
  const userId = personOf(principal);
  const row = await membershipOf(deps, principal, userId);
  return {
    enabled: row.twoFactorEnabled,
    organizationRequires: row.requireTwoFactor,
    mustSetUp: row.requireTwoFactor && !row.twoFactorEnabled,
    mayChangeRequirement: mayRequireTwoFactor(row.role),
  };
}

/**
 * The owner requires two-factor sign-in of every member, or stops requiring it. Turning it on
 * asks the owner to have it first (CONFLICT otherwise): requiring what you have not set up would
 * only send you to the set-up step. The change and its audit record commit together.
 */
export async function setTwoFactorRequirement(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, required: boolean) {
  const userId = personOf(principal);
  const row = await membershipOf(deps, principal, userId);
  if (!mayRequireTwoFactor(row.role)) throw forbidden('Only the organization’s owner can change whether two-factor sign-in is required');
  if (required && !row.twoFactorEnabled) throw conflict('Set up two-factor sign-in for yourself before requiring it of everyone');
  return deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ requireTwoFactor: organizations.requireTwoFactor })
      .from(organizations)
      .where(eq(organizations.id, principal.organizationId))
      .for('update');
    if (!current) throw notFound('Organization');
    if (current.requireTwoFactor !== required) {
      await tx.update(organizations).set({ requireTwoFactor: required }).where(eq(organizations.id, principal.organizationId));
      await recordAudit(tx, deps, {
        organizationId: principal.organizationId,
        by: byPrincipal(principal),
        action: 'organization.two_factor_requirement_changed',
        target: { type: 'organization', id: principal.organizationId, label: row.name },
        details: { from: current.requireTwoFactor, to: required },
      });
    }
    return { organizationRequires: required };
  });
}
