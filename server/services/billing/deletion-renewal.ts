import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { liveSubscriptionOf, stripeAccountOf } from './accounts';
import { stripeOf } from './stripe';
import { setRenewal } from './subscription-change';

type RenewalDeps = Pick<Deps, 'db' | 'config' | 'log'>;

/**
 * Nothing renews for an organization that is going: once its deletion is asked for, its
 * subscription ends with the period already paid (`cancel_at_period_end`), as a move to Free
 * does; the grace period (30 days) outlasts the period, so Stripe never bills again. Called after
 * the deletion commits. Stripe failing does not undo the deletion: it is logged at error level for
 * the operator, who cancels the subscription in Stripe's dashboard (docs/billing.md).
 */
export async function stopRenewalForDeletion(deps: RenewalDeps, organizationId: string): Promise<void> {
  await renew(deps, organizationId, () => 'free', 'stop the renewal of a deleted organization');
}

/** The deletion was cancelled: the subscription renews again as the plan the organization is on, or the downgrade it chose. */
export async function restoreRenewalAfterCancelledDeletion(deps: RenewalDeps, organizationId: string): Promise<void> {
  await renew(deps, organizationId, (organization) => organization.pendingPlan ?? organization.plan, 'restore the renewal after a cancelled deletion');
}

async function renew(deps: RenewalDeps, organizationId: string, planOf: (organization: { plan: string; pendingPlan: string | null }) => string, what: string): Promise<void> {
  const stripe = stripeOf(deps);
  if (!stripe) return;
  const subscription = liveSubscriptionOf(await stripeAccountOf(deps.db, organizationId));
  if (!subscription) return;
  const [organization] = await deps.db.select({ plan: organizations.plan, pendingPlan: organizations.pendingPlan }).from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) return;
  try {
    await setRenewal(deps, stripe, subscription, planOf(organization) as Parameters<typeof setRenewal>[3]);
  } catch (error) {
    deps.log.error({ err: error, organizationId, subscription }, `Stripe did not answer: could not ${what}; change the subscription in Stripe's dashboard`);
  }
}
