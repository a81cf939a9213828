import { eq } from 'drizzle-orm';
import { members, users } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { recordAudit } from '../audit/record';
import type { RequestOrigin } from '../shared/principal';
import type { AuditAction } from '../../vocabulary/audit';

/**
 * A change to a person's own account (their password, their sessions) belongs to every
 * organization they are a member of, as their sign-ins do (audit/sign-ins.ts): one entry in each,
 * by the person, about the person, in the caller's transaction.
 */
export async function recordForPerson(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  entry: { userId: string; action: AuditAction; origin: RequestOrigin | null; details?: Record<string, unknown> },
): Promise<void> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, entry.userId));
  if (!user) return;
  const memberships = await tx.select({ organizationId: members.organizationId }).from(members).where(eq(members.userId, entry.userId));
  for (const { organizationId } of memberships) {
    await recordAudit(tx, deps, {
      organizationId,
      by: { actor: { kind: 'user', userId: entry.userId }, origin: entry.origin },
      action: entry.action,
      target: { type: 'user', id: entry.userId, label: user.email },
      details: entry.details ?? {},
    });
  }
}
