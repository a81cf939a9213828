import { and, eq } from 'drizzle-orm';
import { members } from '@/db/schema';
import type { Deps } from '../../deps';
import { forbidden } from '../../errors';
import type { Principal } from '../shared/principal';

/**
 * FORBIDDEN unless the caller is a person signed in to the dashboard who owns the organization:
 * an API key, or a member of another role, is refused with `message`.
 */
export async function requireOwner(deps: Pick<Deps, 'db'>, principal: Principal, message: string): Promise<void> {
  if (principal.userId === null || principal.keyId !== null) throw forbidden(message);
  const [membership] = await deps.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, principal.organizationId), eq(members.userId, principal.userId)));
  if (membership?.role !== 'owner') throw forbidden(message);
}
