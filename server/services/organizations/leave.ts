import { and, eq } from 'drizzle-orm';
import { members, users } from '@/db/schema';
import type { Deps } from '../../deps';
import { forbidden } from '../../errors';
import { byPrincipal, recordAudit } from '../audit/record';
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
  await deps.db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: members.id, role: members.role, email: users.email })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.organizationId, principal.organizationId), eq(members.userId, userId)))
      .for('update', { of: members });
    if (!member) throw forbidden('You are not a member of this organization');
    if (member.role === 'owner') throw forbidden('The owner cannot leave: transfer ownership to another member first, or delete the organization');
    await tx.delete(members).where(eq(members.id, member.id));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'member.left',
      target: { type: 'member', id: userId, label: member.email },
      details: { role: member.role },
    });
  });
}
