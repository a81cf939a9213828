import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { billingPeriodOf } from './billing-period';
import { proratedChargeEurCents, type PlanChange } from './changes';
import { effectivePlan, pendingPlanAhead } from './effective';
import { planOf } from './plans';

/**
 * What choosing `planId` now would do, without doing it: the billing page asks before a person
 * confirms, so the dialog can say what an upgrade charges or when a downgrade starts. It decides
 * as changePlan does (test/plan-quote.test.ts holds the two to the same answers); the charge is
 * worked out again when the change is made, a moment later.
 */
export async function quotePlanChange(deps: Pick<Deps, 'db' | 'clock'>, organizationId: string, planId: string): Promise<PlanChange> {
  const target = planOf(planId);
  const [organization] = await deps.db
    .select({ plan: organizations.plan, pendingPlan: organizations.pendingPlan, pendingPlanAt: organizations.pendingPlanAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!organization) throw notFound('Organization');
  const now = deps.clock.now();
  const current = effectivePlan(organization, now);
  if (target.id === current.id) {
    return { kind: pendingPlanAhead(organization, now) ? 'cancelled' : 'unchanged', from: current.id, to: target.id, effectiveAt: now };
  }
  if (target.monthlyEmails > current.monthlyEmails) {
    return { kind: 'upgrade', from: current.id, to: target.id, effectiveAt: now, proratedChargeEurCents: proratedChargeEurCents(current, target, now) };
  }
  return { kind: 'downgrade', from: current.id, to: target.id, effectiveAt: billingPeriodOf(now).end };
}
