import { and, asc, eq } from 'drizzle-orm';
import { members, organizations, users } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { forbidden, notFound, validationError } from '../../errors';
import { byPrincipal, recordAudit } from '../audit/record';
import { requireRole } from '../organizations/owners';
import { endMembership } from './end-membership';
import type { Principal } from '../shared/principal';
import { ASSIGNABLE_ROLES, TEAM_MANAGERS, type AssignableRole, type Role } from '../../vocabulary/roles';

export interface MemberView {
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
}

/** The organization's members, the owner first, then by when they joined. */
export async function listMembers(deps: Pick<Deps, 'db'>, principal: Principal): Promise<MemberView[]> {
  const rows = await deps.db
    .select({ userId: members.userId, name: users.name, email: users.email, role: members.role, joinedAt: members.createdAt })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.organizationId, principal.organizationId))
    .orderBy(asc(members.createdAt), asc(members.id));
  return rows
    .map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() }))
    .sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
}

/** A member of the caller's organization, locked for the change; another organization's person is NOT_FOUND. */
async function memberForChange(tx: Db, organizationId: string, userId: string) {
  const [row] = await tx
    .select({ id: members.id, role: members.role, email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
    .for('update', { of: members });
  if (!row) throw notFound('Member');
  return row;
}

const MANAGE_MESSAGE = 'Only the owner or an admin manages the team';

/**
 * Gives a member another role below owner (ownership is transferred, never assigned). The
 * owner's own role changes only by a transfer. Setting the role a member has changes nothing.
 */
export async function changeRole(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, userId: string, role: AssignableRole): Promise<MemberView[]> {
  if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role)) throw validationError('role must be admin, developer, marketer, billing or viewer; ownership is transferred');
  await requireRole(deps, principal, TEAM_MANAGERS, MANAGE_MESSAGE);
  await deps.db.transaction(async (tx) => {
    const member = await memberForChange(tx, principal.organizationId, userId);
    if (member.role === 'owner') throw forbidden('The owner’s role changes only by transferring ownership');
    if (member.role === role) return;
    await tx.update(members).set({ role }).where(eq(members.id, member.id));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'member.role_changed',
      target: { type: 'member', id: userId, label: member.email },
      details: { from: member.role, to: role },
    });
  });
  return listMembers(deps, principal);
}

/**
 * Removes a member (the owner never: transfer ownership first) and ends every session of theirs,
 * in every organization: a session is the person's, not the membership's, and ending all of them
 * is the simplest rule that leaves no session acting for the organization (docs/teams.md).
 */
export async function removeMember(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, userId: string): Promise<void> {
  await requireRole(deps, principal, TEAM_MANAGERS, MANAGE_MESSAGE);
  await deps.db.transaction((tx) => endMembership(tx, deps, principal, userId, 'removed'));
}

/**
 * The owner hands the organization to another member, who becomes its one owner; the former owner
 * stays as an admin. The organization's owner address follows the new owner; its confirmation
 * stands (the organization was confirmed, and sending does not stop for a change of hands).
 */
export async function transferOwnership(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, userId: string): Promise<MemberView[]> {
  await requireRole(deps, principal, ['owner'], 'Only the owner transfers ownership');
  if (userId === principal.userId) throw validationError('You own the organization already');
  await deps.db.transaction(async (tx) => {
    const [organization] = await tx.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, principal.organizationId)).for('update');
    if (!organization) throw notFound('Organization');
    const current = await memberForChange(tx, principal.organizationId, principal.userId!);
    if (current.role !== 'owner') throw forbidden('Only the owner transfers ownership');
    const next = await memberForChange(tx, principal.organizationId, userId);
    await tx.update(members).set({ role: 'admin' }).where(eq(members.id, current.id));
    await tx.update(members).set({ role: 'owner' }).where(eq(members.id, next.id));
    await tx.update(organizations).set({ ownerEmail: next.email }).where(eq(organizations.id, organization.id));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'organization.ownership_transferred',
      target: { type: 'member', id: userId, label: next.email },
      details: { from: current.email, to: next.email, formerOwnerRole: 'admin', previousRole: next.role },
    });
  });
  return listMembers(deps, principal);
}
