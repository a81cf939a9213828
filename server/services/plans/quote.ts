import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { decidePlanChange, type PlanChange } from './changes';
import { planOf } from './plans';
import { upgradeSettlement, type UpgradeSettlement } from '../billing/settlement';

/**
 * What choosing `planId` now would do, without doing it: the billing page asks before a person
 * confirms, so the dialog can say what an upgrade charges or when a downgrade starts. The same
 * decision as changePlan's; the charge is worked out again when the change is made, a moment later.
 */
export interface PlanQuote extends PlanChange {
  /** How an upgrade is settled (docs/billing.md); null for anything else. */
  settlement: UpgradeSettlement | null;
}

export async function quotePlanChange(deps: Pick<Deps, 'db' | 'clock' | 'config'>, organizationId: string, planId: string): Promise<PlanQuote> {
  const target = planOf(planId);
  const [organization] = await deps.db
    .select({ plan: organizations.plan, pendingPlan: organizations.pendingPlan, pendingPlanAt: organizations.pendingPlanAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!organization) throw notFound('Organization');
  const { change } = decidePlanChange(organization, target, deps.clock.now());
  return { ...change, settlement: change.kind === 'upgrade' ? await upgradeSettlement(deps, organizationId) : null };
}
