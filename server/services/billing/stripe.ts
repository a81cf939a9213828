import type { Deps } from '../../deps';
import type { StripeConfig } from '../../config-stripe';
import { PLANS, type PlanId } from '../plans/plan-table';
import { createStripeClient, type Stripe } from './stripe-client';

// One client per configuration: the SDK keeps its connections, so it is made once per process.
const clients = new WeakMap<StripeConfig, Stripe>();

/** The Stripe client when STRIPE_SECRET_KEY is set; null: no payment provider (upgrades are requests). */
export function stripeOf(deps: Pick<Deps, 'config'>): Stripe | null {
  const config = deps.config.stripe;
  if (!config) return null;
  let client = clients.get(config);
  if (!client) clients.set(config, (client = createStripeClient(config)));
  return client;
}

/** The paid plan a price id is the monthly price of (STRIPE_PRICES), or null for a price no plan has. */
export function planOfPrice(config: StripeConfig, priceId: string | null | undefined): PlanId | null {
  if (!priceId) return null;
  const found = Object.entries(config.prices).find(([, price]) => price === priceId);
  return found && found[0] in PLANS ? (found[0] as PlanId) : null;
}

/** Prices of a subscription's items, as an event or a retrieve gives them (a price as an id or the object). */
type SubscriptionItems = { items?: { data?: Array<{ price?: string | { id: string } | null }> } | null };

/**
 * The plan a subscription bills: its one item whose price is a plan's monthly price (the other
 * item is the metered overage price, which every plan shares); null when no item has one.
 */
export function planOfSubscription(config: StripeConfig, subscription: SubscriptionItems): PlanId | null {
  for (const item of subscription.items?.data ?? []) {
    const plan = planOfPrice(config, idOf(item.price));
    if (plan) return plan;
  }
  return null;
}

/** The price of a paid plan; throws for Free, which has none (no checkout is made for it). */
export function priceOfPlan(config: StripeConfig, plan: PlanId): string {
  if (plan === 'free') throw new Error('Free has no Stripe price');
  return config.prices[plan];
}

/** An id from a field the SDK types as an id or the expanded object. */
export const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);
