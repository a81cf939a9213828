import type { Deps } from '../../deps';
import type { PlanId } from '../plans/plans';
import { priceOfPlan } from './stripe';
import type { Stripe } from './stripe-client';

/**
 * The subscription's items as a plan change sends them: the plan's item moved to `price`, and the
 * metered overage item added when the subscription has none (one made before overage was
 * configured), so every paid subscription bills its overage. The overage item itself never changes
 * with the plan: its unit is a thousandth of a euro cent, whatever the plan's rate.
 */
async function itemsFor(deps: Pick<Deps, 'config'>, stripe: Stripe, subscriptionId: string, price: string): Promise<Stripe.SubscriptionUpdateParams.Item[]> {
  const overagePrice = deps.config.stripe!.overage.price;
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const planItem = subscription.items.data.find((item) => item.price.id !== overagePrice);
  if (!planItem) throw new Error(`Stripe subscription ${subscriptionId} has no plan item`);
  const hasOverage = subscription.items.data.some((item) => item.price.id === overagePrice);
  return [{ id: planItem.id, price }, ...(hasOverage ? [] : [{ price: overagePrice }])];
}

/**
 * A paid-to-paid upgrade: the subscription's price becomes the higher plan's, the difference for
 * the rest of the period invoiced at once (`always_invoice`), and the change held by Stripe until
 * that invoice is paid (`pending_if_incomplete`). The plan rises on the webhook that says it was
 * paid, never here.
 */
export async function upgradeSubscription(deps: Pick<Deps, 'config'>, stripe: Stripe, subscriptionId: string, plan: PlanId): Promise<void> {
  await stripe.subscriptions.update(subscriptionId, {
    items: await itemsFor(deps, stripe, subscriptionId, priceOfPlan(deps.config.stripe!, plan)),
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
  await stripe.subscriptions.update(subscriptionId, { items: await itemsFor(deps, stripe, subscriptionId, priceOfPlan(deps.config.stripe!, plan)), proration_behavior: 'none', cancel_at_period_end: false });
}
