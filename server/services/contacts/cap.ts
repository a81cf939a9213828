import { eq, sql } from 'drizzle-orm';
import { audiences, organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import { AppError, notFound } from '../../errors';
import { planOf } from '../plans/plans';

/**
 * Refuses (403 PLAN_LIMIT_EXCEEDED) a change that would take the organization past its plan's
 * contacts, counted across every audience. Takes the organization's row lock first and holds it
 * to the end of the caller's transaction, so concurrent additions are counted one after the other
 * and the cap is exact. Nothing is ever deleted by the cap: an organization over it (a downgrade)
 * just cannot add more.
 */
export async function refusePastContactCap(tx: Db, organizationId: string, adding: number): Promise<void> {
  const [organization] = await tx.select({ plan: organizations.plan }).from(organizations).where(eq(organizations.id, organizationId)).for('update');
  if (!organization) throw notFound('Organization');
  if (adding === 0) return;
  const plan = planOf(organization.plan);
  const [{ used } = { used: 0 }] = await tx
    .select({ used: sql<number>`coalesce(sum(${audiences.contactCount}), 0)::int` })
    .from(audiences)
    .where(eq(audiences.organizationId, organizationId));
  if (used + adding > plan.contacts) {
    const left = Math.max(plan.contacts - used, 0);
    throw new AppError(
      'PLAN_LIMIT_EXCEEDED',
      `The ${plan.label} plan stores ${plan.contacts.toLocaleString('en')} contacts across all audiences; ${left.toLocaleString('en')} ${left === 1 ? 'slot is' : 'slots are'} left and this request adds ${adding.toLocaleString('en')}. Nothing was stored; delete contacts or upgrade`,
    );
  }
}
