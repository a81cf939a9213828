import { accessRuleOf, roleMayCall, type DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import type { Role } from '@/server/vocabulary/roles';
import { useRole } from '../../lib/use-role';
import { ROLE_LABELS } from '../team/role-words';

const ROLE_NAMES: Record<Role, string> = {
  owner: 'the owner',
  admin: 'an admin',
  developer: 'a developer',
  marketer: 'a marketer',
  billing: 'the billing role',
  viewer: 'a viewer',
};

/**
 * Why `role` may not call `procedure`, naming the roles that may (from the table the server
 * checks), or null when it may.
 */
export function roleRefusalOf(role: Role, procedure: DashboardProcedure): string | null {
  if (roleMayCall(role, procedure)) return null;
  const rule = accessRuleOf(procedure);
  const allowed = Array.isArray(rule) ? (rule as readonly Role[]).map((name) => ROLE_NAMES[name]) : [];
  const who = allowed.length <= 1 ? (allowed[0] ?? 'nobody') : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  return `Your role (${ROLE_LABELS[role]}) cannot do this here: ask ${who}.`;
}

/** The refusal for the signed-in person's role; null while the role is unknown or when it may. */
export function useRoleRefusal(procedure: DashboardProcedure): string | null {
  const role = useRole();
  return role === null ? null : roleRefusalOf(role, procedure);
}
