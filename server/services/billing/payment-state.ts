import type { Deps } from '../../deps';
import { planOf } from '../plans/plans';
import { stripeAccountOf } from './accounts';

/**
 * What the billing page says about payment: whether Stripe is the payment provider, a payment
 * still clearing (a SEPA debit takes days: the plan paid for is not in force until it clears),
 * and the subscription as Stripe last reported it. Every member may read it; it holds no amounts.
 */
export async function paymentStateOf(deps: Pick<Deps, 'db' | 'config'>, organizationId: string) {
  if (!deps.config.stripe) return { provider: null, paymentPending: null, subscription: null };
  const account = await stripeAccountOf(deps.db, organizationId);
  const pending = account?.paymentPendingPlan ? planOf(account.paymentPendingPlan) : null;
  return {
    provider: 'stripe' as const,
    paymentPending: pending && { plan: pending.id, label: pending.label, since: account!.paymentPendingSince?.toISOString() ?? null },
    subscription: account?.subscriptionId
      ? { status: account.subscriptionStatus, plan: account.subscriptionPlan, currentPeriodEnd: account.currentPeriodEnd?.toISOString() ?? null }
      : null,
  };
}
