import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { OPERATOR } from '../audit/record';
import { changePlan } from '../plans/changes';
import { effectivePlan } from '../plans/effective';
import { planOf, type PlanId } from '../plans/plans';

/**
 * Applies a payment Stripe reported: the organization moves up to the plan paid for, at once, if
 * that is higher than the plan in force. A payment only ever raises: a renewal at a lower price
 * (a downgrade already scheduled) or an old invoice paid late never lowers a plan or drops a
 * pending change. The audit entry is the operator's (the service itself), naming the event.
 */
export async function raiseToPaidPlan(tx: Db, deps: Pick<Deps, 'clock'>, organizationId: string, plan: PlanId, eventId: string): Promise<string> {
  const [organization] = await tx
    .select({ plan: organizations.plan, pendingPlan: organizations.pendingPlan, pendingPlanAt: organizations.pendingPlanAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
  if (!organization) return 'ignored: organization gone';
  const current = effectivePlan(organization, deps.clock.now());
  if (planOf(plan).monthlyEmails <= current.monthlyEmails) return `unchanged: paid for ${plan}, on ${current.id}`;
  await changePlan({ db: tx, clock: deps.clock }, organizationId, plan, { db: tx, by: OPERATOR, auditDetails: { via: 'stripe', stripeEventId: eventId } });
  return `plan raised to ${plan}`;
}
