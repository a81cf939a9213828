import { eq } from 'drizzle-orm';
import { stripeAccounts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { StripeConfig } from '../../config-stripe';
import type { StripeAccount } from './accounts';
import { planOfSubscription } from './stripe';
import type { Stripe } from './stripe-client';

/** The end of the period paid for: on the subscription's item in current API versions, on the subscription in older ones. */
export function periodEndOf(subscription: Stripe.Subscription): Date | null {
  const seconds = subscription.items?.data?.[0]?.current_period_end ?? (subscription as unknown as { current_period_end?: number }).current_period_end;
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

/**
 * Writes what a subscription says (its id, status, plan, period end) when it is at least as new as
 * what is held: `at` is the time Stripe stamped on it (the event's `created`). An older state
 * arriving late is dropped: Stripe does not deliver events in order, and the newest state wins.
 */
export async function recordSubscriptionState(tx: Db, config: StripeConfig, account: StripeAccount, subscription: Stripe.Subscription, at: Date): Promise<boolean> {
  if (account.stateAt && at.getTime() < account.stateAt.getTime()) return false;
  await tx
    .update(stripeAccounts)
    .set({
      subscriptionId: subscription.id,
      subscriptionStatus: subscription.status,
      subscriptionPlan: planOfSubscription(config, subscription),
      currentPeriodEnd: periodEndOf(subscription),
      stateAt: at,
    })
    .where(eq(stripeAccounts.organizationId, account.organizationId));
  return true;
}
