import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import { notFound } from '../../errors';
import { planOf, type Plan } from './plans';

/** The columns that decide which plan an organization is on at a given moment. */
export interface PlanColumns {
  plan: string;
  pendingPlan: string | null;
  pendingPlanAt: Date | null;
}

/**
 * The plan in force at `now`: a pending change whose time has come counts even before the sweep
 * writes it, so a downgrade takes hold at exactly the first instant of the next month whatever
 * the sweep's timing.
 */
export function effectivePlan(organization: PlanColumns, now: Date): Plan {
  if (organization.pendingPlan !== null && organization.pendingPlanAt !== null && organization.pendingPlanAt.getTime() <= now.getTime()) {
    return planOf(organization.pendingPlan);
  }
  return planOf(organization.plan);
}

/** The downgrade still waiting for the end of the billing period at `now`, or null. */
export function pendingPlanAhead(organization: PlanColumns, now: Date): { plan: Plan; at: Date } | null {
  if (organization.pendingPlan === null || organization.pendingPlanAt === null || organization.pendingPlanAt.getTime() <= now.getTime()) return null;
  return { plan: planOf(organization.pendingPlan), at: organization.pendingPlanAt };
}

/**
 * The organization's plan in force, read with its row lock (`lock`) when the caller is about to
 * create something the plan caps: the lock lasts to the end of the caller's transaction and
 * serialises every creation (and every plan change) of the organization, so a count taken after
 * it is exact.
 */
export async function planInForce(db: Db, organizationId: string, now: Date, options: { lock: boolean }): Promise<Plan> {
  const query = db
    .select({ plan: organizations.plan, pendingPlan: organizations.pendingPlan, pendingPlanAt: organizations.pendingPlanAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const [organization] = await (options.lock ? query.for('update') : query);
  if (!organization) throw notFound('Organization');
  return effectivePlan(organization, now);
}
