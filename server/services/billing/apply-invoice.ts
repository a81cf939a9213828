import { eq } from 'drizzle-orm';
import { stripeAccounts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { planOf } from '../plans/plans';
import type { StripeAccount } from './accounts';
import { settleNonPayment } from './non-payment';
import { raiseToPaidPlan } from './paid-plan';
import { idOf, planOfPrice } from './stripe';
import type { Stripe } from './stripe-client';
import { recordSubscriptionState } from './subscription-state';

/** The subscription an invoice bills: under `parent` in current API versions, at the top in older ones. */
export function subscriptionIdOfInvoice(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/**
 * `invoice.paid`: the subscription's invoice was paid (a first checkout, a paid-to-paid upgrade's
 * prorated invoice once Stripe applied the pending update, a renewal, a SEPA debit that cleared).
 * The plan paid for is the subscription's price as Stripe holds it now (`subscription`, asked for
 * before this transaction), and the organization rises to it if that is higher.
 */
export async function applyInvoicePaid(tx: Db, deps: Pick<Deps, 'clock' | 'config'>, event: Stripe.Event, account: StripeAccount, subscription: Stripe.Subscription | null): Promise<string> {
  if (!subscription) return 'ignored: not a subscription invoice';
  const config = deps.config.stripe!;
  const lifted = await settleNonPayment(tx, deps, account, event.id);
  await recordSubscriptionState(tx, config, account, subscription, new Date(Math.max(event.created * 1000, account.stateAt?.getTime() ?? 0)));
  const plan = planOfPrice(config, subscription.items.data[0]?.price?.id);
  if (!plan) return lifted ? 'restriction for non-payment lifted' : 'ignored: the subscription has no configured price';
  // A pending payment for this plan or a lower one is settled by this one.
  if (account.paymentPendingPlan && planOf(account.paymentPendingPlan).monthlyEmails <= planOf(plan).monthlyEmails) {
    await tx.update(stripeAccounts).set({ paymentPendingPlan: null, paymentPendingSince: null }).where(eq(stripeAccounts.organizationId, account.organizationId));
  }
  const raised = await raiseToPaidPlan(tx, deps, account.organizationId, plan, event.id);
  return lifted ? `${raised}; restriction for non-payment lifted` : raised;
}
