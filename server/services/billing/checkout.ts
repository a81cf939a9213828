import type { Deps } from '../../deps';
import { billingPeriodOf } from '../plans/billing-period';
import type { Plan } from '../plans/plans';
import { ensureStripeCustomer } from './accounts';
import { priceOfPlan } from './stripe';
import type { Stripe } from './stripe-client';

/** Where Checkout sends the person back: the billing page, which says what happened. */
export const checkoutReturnUrls = (appUrl: string) => ({
  success: `${appUrl}/billing?checkout={CHECKOUT_SESSION_ID}`,
  cancel: `${appUrl}/billing?checkout=cancelled`,
});

/**
 * The Checkout session parameters for a subscription to `plan` (docs/billing.md): anchored to the
 * first of next month UTC so Stripe's periods are the quota's months (the first part-month
 * prorated), Stripe Tax on, the billing address and a VAT number asked for (Stripe needs the
 * customer's name and address saved to attach a tax id), the metered overage price beside the
 * plan's (docs/billing.md), and the organization and plan in the metadata of the session and of the subscription it makes.
 */
export function checkoutParams(options: { customerId: string; organizationId: string; plan: Plan; price: string; overagePrice: string; appUrl: string; now: Date }): Stripe.Checkout.SessionCreateParams {
  const metadata = { organizationId: options.organizationId, plan: options.plan.id };
  const urls = checkoutReturnUrls(options.appUrl);
  return {
    mode: 'subscription',
    customer: options.customerId,
    client_reference_id: options.organizationId,
    // The metered overage price rides on every subscription (no quantity: Stripe bills its meter).
    line_items: [{ price: options.price, quantity: 1 }, { price: options.overagePrice }],
    subscription_data: {
      billing_cycle_anchor: Math.floor(billingPeriodOf(options.now).end.getTime() / 1000),
      proration_behavior: 'create_prorations',
      metadata,
    },
    automatic_tax: { enabled: true },
    tax_id_collection: { enabled: true },
    billing_address_collection: 'required',
    customer_update: { address: 'auto', name: 'auto' },
    metadata,
    success_url: urls.success,
    cancel_url: urls.cancel,
  };
}

/**
 * Starts a paid subscription from Free (or from a plan an operator set without one): a Checkout
 * session the dashboard sends the person to. Nothing changes here: the plan rises when Stripe's
 * signed webhook says the payment succeeded.
 */
export async function startCheckout(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  stripe: Stripe,
  organization: { id: string; name: string; ownerEmail: string },
  plan: Plan,
): Promise<{ url: string; sessionId: string }> {
  const config = deps.config.stripe!;
  const account = await ensureStripeCustomer(deps, stripe, organization);
  const session = await stripe.checkout.sessions.create(
    checkoutParams({ customerId: account.customerId, organizationId: organization.id, plan, price: priceOfPlan(config, plan.id), overagePrice: config.overage.price, appUrl: deps.config.appUrl, now: deps.clock.now() }),
  );
  if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
  return { url: session.url, sessionId: session.id };
}
