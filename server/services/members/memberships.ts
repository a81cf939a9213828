import { asc, eq } from 'drizzle-orm';
import { members, organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { ensureOrganizationOfUser, type Organization } from '../organizations/organizations';
import type { Role } from '../../vocabulary/roles';

export interface Membership {
  organization: Organization;
  role: Role;
}

/** Every organization a person belongs to, the oldest membership first. */
export async function membershipsOfUser(deps: Pick<Deps, 'db'>, userId: string): Promise<Membership[]> {
  return deps.db
    .select({ organization: organizations, role: members.role })
    .from(members)
    .innerJoin(organizations, eq(members.organizationId, organizations.id))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt), asc(members.id));
}

/**
 * The organization a signed-in person acts for, and their role in it: the one the dashboard's
 * switcher chose (`wanted`, from a cookie) when they still belong to it, else their oldest
 * membership. A person with none (sign-up's hook failed, or removed from their only organization)
 * gets a new one of their own rather than a locked door.
 */
export async function activeMembership(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'jobs' | 'metrics'>,
  user: { id: string; name: string; email: string },
  wanted: string | null,
): Promise<Membership> {
  const memberships = await membershipsOfUser(deps, user.id);
  const chosen = memberships.find((m) => m.organization.id === wanted) ?? memberships[0];
  if (chosen) return chosen;
  const organization = await ensureOrganizationOfUser(deps, user);
  return { organization, role: 'owner' };
}
