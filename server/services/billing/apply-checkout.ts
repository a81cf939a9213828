import { eq } from 'drizzle-orm';
import { stripeAccounts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import type { StripeAccount } from './accounts';
import { raiseToPaidPlan } from './paid-plan';
import { idOf } from './stripe';
import type { PlanId } from '../plans/plans';
import type { Stripe } from './stripe-client';

/**
 * A Checkout session's events. `completed` with `payment_status: 'paid'` (a card) raises the plan
 * at once; `unpaid` (a SEPA debit, which takes days) records the plan as pending payment and keeps
 * the old one until `async_payment_succeeded`; `async_payment_failed` drops the pending payment.
 * An abandoned session (`expired`) changes nothing. The plan is the session's metadata, checked
 * against the organization the customer belongs to and the configured prices.
 */
export async function applyCheckoutEvent(tx: Db, deps: Pick<Deps, 'clock' | 'config'>, event: Stripe.Event, account: StripeAccount): Promise<string> {
  const session = event.data.object as Stripe.Checkout.Session;
  if (event.type === 'checkout.session.expired') return 'ignored: checkout abandoned';
  if (session.mode !== 'subscription') return 'ignored: not a subscription checkout';
  const plan = session.metadata?.plan ?? '';
  if (session.metadata?.organizationId !== account.organizationId) return 'ignored: metadata names another organization';
  if (!Object.hasOwn(deps.config.stripe!.prices, plan)) return `ignored: no paid plan "${plan}"`;
  const paidPlan = plan as PlanId;
  const now = deps.clock.now();
  const subscriptionId = idOf(session.subscription);
  const set = async (values: Partial<StripeAccount>) => {
    await tx.update(stripeAccounts).set(values).where(eq(stripeAccounts.organizationId, account.organizationId));
  };
  // Until a subscription event says more, the session is what is known of the new subscription.
  const known = account.stateAt === null || account.subscriptionId !== subscriptionId ? { subscriptionId, subscriptionStatus: session.payment_status === 'paid' ? 'active' : 'incomplete', subscriptionPlan: paidPlan } : {};

  if (event.type === 'checkout.session.async_payment_failed') {
    await set({ paymentPendingPlan: null, paymentPendingSince: null });
    return 'payment failed';
  }
  const paid = event.type === 'checkout.session.async_payment_succeeded' || (event.type === 'checkout.session.completed' && session.payment_status === 'paid');
  if (paid) {
    await set({ ...known, paymentPendingPlan: null, paymentPendingSince: null });
    return raiseToPaidPlan(tx, deps, account.organizationId, paidPlan, event.id);
  }
  if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') {
    await set({ ...known, paymentPendingPlan: paidPlan, paymentPendingSince: now });
    return `payment pending for ${paidPlan}`;
  }
  return `ignored: payment ${session.payment_status}`;
}
