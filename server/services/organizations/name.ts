import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound, validationError } from '../../errors';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import { SETTINGS_MANAGERS } from '../../vocabulary/roles';
import { requireRole } from './owners';

/** As sign-up's name field: a hundred characters at most. */
export const ORGANIZATION_NAME_MAX = 100;

/** A name as stored: trimmed, not empty, at most {@link ORGANIZATION_NAME_MAX} characters, no control characters (it is printed in mail subjects). */
export function organizationName(given: string): string {
  const name = given.trim();
  if (!name) throw validationError('name must not be empty');
  if ([...name].length > ORGANIZATION_NAME_MAX) throw validationError(`name must be at most ${ORGANIZATION_NAME_MAX} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw validationError('name must be on one line, without control characters');
  return name;
}

/** The owner or an admin renames the organization; the same name again changes and records nothing. */
export async function renameOrganization(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, given: string): Promise<{ name: string }> {
  const name = organizationName(given);
  await requireRole(deps, principal, SETTINGS_MANAGERS, 'Only the owner or an admin renames the organization');
  return deps.db.transaction(async (tx) => {
    const [current] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, principal.organizationId)).for('update');
    if (!current) throw notFound('Organization');
    if (current.name === name) return { name };
    await tx.update(organizations).set({ name }).where(eq(organizations.id, principal.organizationId));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'organization.renamed',
      target: { type: 'organization', id: principal.organizationId, label: name },
      details: { from: current.name, to: name },
    });
    return { name };
  });
}
