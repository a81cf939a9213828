import type { Deps } from '../../deps';
import type { PlanId } from '../plans/plans';
import { priceOfPlan } from './stripe';
import type { Stripe } from './stripe-client';

async function firstItemOf(stripe: Stripe, subscriptionId: string): Promise<string> {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item`);
  return item.id;
}

/**
 * A paid-to-paid upgrade: the subscription's price becomes the higher plan's, the difference for
 * the rest of the period invoiced at once (`always_invoice`), and the change held by Stripe until
 * that invoice is paid (`pending_if_incomplete`). The plan rises on the webhook that says it was
 * paid, never here.
 */
export async function upgradeSubscription(deps: Pick<Deps, 'config'>, stripe: Stripe, subscriptionId: string, plan: PlanId): Promise<void> {
  const item = await firstItemOf(stripe, subscriptionId);
  await stripe.subscriptions.update(subscriptionId, {
    items: [{ id: item, price: priceOfPlan(deps.config.stripe!, plan) }],
    proration_behavior: 'always_invoice',
    payment_behavior: 'pending_if_incomplete',
  });
}

/**
 * What the subscription renews as: a downgrade (or a downgrade dropped, back to the current plan)
 * changes the price with no proration, so the month already paid is neither credited nor charged
 * again and the next renewal, on the first of the month, bills the new price; a move to Free
 * cancels at the period's end instead. The plan itself stays as recorded (pending until the
 * month's end); a webhook reporting a lower price never lowers it (docs/billing.md).
 */
export async function setRenewal(deps: Pick<Deps, 'config'>, stripe: Stripe, subscriptionId: string, plan: PlanId): Promise<void> {
  if (plan === 'free') {
    await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    return;
  }
  const item = await firstItemOf(stripe, subscriptionId);
  await stripe.subscriptions.update(subscriptionId, { items: [{ id: item, price: priceOfPlan(deps.config.stripe!, plan) }], proration_behavior: 'none', cancel_at_period_end: false });
}
