import { eq } from 'drizzle-orm';
import { members, users } from '@/db/schema';
import type { Deps } from '../../deps';
import type { RequestOrigin } from '../shared/principal';
import type { AuditAction } from '../../vocabulary/audit';
import { recordAudit } from './record';

/**
 * A person's sign-in (or failed attempt) belongs to every organization they are a member of.
 * better-auth has already written (or refused) the session: this records it afterwards, in its
 * own transaction, one row per organization.
 */
async function recordForUser(
  deps: Pick<Deps, 'db' | 'clock'>,
  user: { id: string; email: string },
  action: Extract<AuditAction, `user.${string}`>,
  origin: RequestOrigin,
  details: Record<string, unknown>,
): Promise<void> {
  const memberships = await deps.db.select({ organizationId: members.organizationId }).from(members).where(eq(members.userId, user.id));
  if (memberships.length === 0) return;
  await deps.db.transaction(async (tx) => {
    for (const { organizationId } of memberships) {
      await recordAudit(tx, deps, {
        organizationId,
        by: { actor: { kind: 'user', userId: user.id }, origin },
        action,
        target: { type: 'user', id: user.id, label: user.email },
        details,
      });
    }
  });
}

/** Something a person did to their own account (two-factor sign-in on or off), in each of their organizations' logs. */
export async function recordForMemberships(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  action: Extract<AuditAction, `user.${string}`>,
  origin: RequestOrigin,
  details: Record<string, unknown>,
): Promise<void> {
  const [user] = await deps.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) return;
  await recordForUser(deps, user, action, origin, details);
}

/** A new session: signing in, or the sign-in that follows signing up. */
export async function recordSignIn(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; origin: RequestOrigin; via: string | null }): Promise<void> {
  const [user] = await deps.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, input.userId));
  if (!user) return;
  await recordForUser(deps, user, 'user.signed_in', input.origin, input.via ? { via: input.via } : {});
}

/**
 * A refused password sign-in for an account that exists. One for an unknown address belongs to
 * no organization and is not recorded.
 */
export async function recordFailedSignIn(deps: Pick<Deps, 'db' | 'clock'>, input: { email: string; origin: RequestOrigin; reason: string }): Promise<void> {
  const [user] = await deps.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, input.email.trim().toLowerCase()));
  if (!user) return;
  await recordForUser(deps, user, 'user.sign_in_failed', input.origin, { reason: input.reason });
}
