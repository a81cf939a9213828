import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { organizations } from '@/db/schema';
import type { Deps } from '../../../deps';
import { AppError } from '../../../errors';
import { effectivePlan } from '../../plans/effective';
import { accountRefusal } from './checks';

/**
 * Whether the organization may send list mail now (a broadcast, a re-engagement email, an
 * automation's email), read under the caller's transaction: the plan allows it (`sendsBroadcasts`:
 * Free does not) and the account may send (active, owner confirmed, not closing, not unpaid). Null
 * when it may; else the refusal, its plan message naming `what` is sent ("Broadcasts need a paid
 * plan…"). Checked again at send time: a downgrade or a restriction since the setting was saved stops it.
 */
export async function listMailRefusal(tx: Db, deps: Pick<Deps, 'clock'>, organizationId: string, planMessage: (planLabel: string) => string): Promise<AppError | null> {
  const [organization] = await tx
    .select({ status: organizations.status, ownerConfirmedAt: organizations.ownerConfirmedAt, deletionRequestedAt: organizations.deletionRequestedAt, statusCause: organizations.statusCause, plan: organizations.plan, pendingPlan: organizations.pendingPlan, pendingPlanAt: organizations.pendingPlanAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!organization) return new AppError('NOT_FOUND', 'Organization not found');
  const plan = effectivePlan(organization, deps.clock.now());
  if (!plan.sendsBroadcasts) return new AppError('PLAN_LIMIT_EXCEEDED', planMessage(plan.label));
  return accountRefusal({ status: organization.status, ownerConfirmed: organization.ownerConfirmedAt !== null, deletionPending: organization.deletionRequestedAt !== null, unpaid: organization.statusCause === 'non_payment' });
}
