import { and, eq } from 'drizzle-orm';
import { members, sessions, users } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { forbidden, notFound } from '../../errors';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';

/**
 * How a membership ends, and what each way differs in. A removal is someone else's act, so it ends
 * every session of the person (docs/teams.md); leaving is the person's own, and their sessions act
 * for another organization of theirs from the next request (docs/organization-settings.md).
 */
const ENDINGS = {
  left: {
    action: 'member.left',
    endSessions: false,
    absent: () => forbidden('You are not a member of this organization'),
    ownerRefusal: 'The owner cannot leave: transfer ownership to another member first, or delete the organization',
  },
  removed: {
    action: 'member.removed',
    endSessions: true,
    absent: () => notFound('Member'),
    ownerRefusal: 'The owner cannot be removed; the owner transfers ownership first',
  },
} as const;

export type MembershipEnding = keyof typeof ENDINGS;

/**
 * Ends `userId`'s membership of the principal's organization, inside the caller's transaction:
 * locks the row, refuses the owner (an organization keeps its one owner), deletes it, ends the
 * person's sessions when the way says so, and records the way in the audit log with the role held.
 */
export async function endMembership(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  principal: Principal,
  userId: string,
  way: MembershipEnding,
): Promise<void> {
  const ending = ENDINGS[way];
  const [member] = await tx
    .select({ id: members.id, role: members.role, email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, principal.organizationId), eq(members.userId, userId)))
    .for('update', { of: members });
  if (!member) throw ending.absent();
  if (member.role === 'owner') throw forbidden(ending.ownerRefusal);
  await tx.delete(members).where(eq(members.id, member.id));
  if (ending.endSessions) await tx.delete(sessions).where(eq(sessions.userId, userId));
  await recordAudit(tx, deps, {
    organizationId: principal.organizationId,
    by: byPrincipal(principal),
    action: ending.action,
    target: { type: 'member', id: userId, label: member.email },
    details: { role: member.role },
  });
}
