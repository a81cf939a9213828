import { eq } from 'drizzle-orm';
import { stripeAccounts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { planOf } from '../plans/plans';
import type { StripeAccount } from './accounts';
import { noteRenewalFailed, noteRenewalPaid } from './payment-standing';
import { raiseToPaidPlan } from './paid-plan';
import { idOf, planOfSubscription } from './stripe';
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
  const lifted = await noteRenewalPaid(tx, deps, account.organizationId, { invoice: (event.data.object as Stripe.Invoice).id ?? null });
  await recordSubscriptionState(tx, config, account, subscription, new Date(Math.max(event.created * 1000, account.stateAt?.getTime() ?? 0)));
  const plan = planOfSubscription(config, subscription);
  if (!plan) return lifted ? 'what was owed is paid' : 'ignored: the subscription has no configured price';
  // A pending payment for this plan or a lower one is settled by this one.
  if (account.paymentPendingPlan && planOf(account.paymentPendingPlan).monthlyEmails <= planOf(plan).monthlyEmails) {
    await tx.update(stripeAccounts).set({ paymentPendingPlan: null, paymentPendingSince: null }).where(eq(stripeAccounts.organizationId, account.organizationId));
  }
  const raised = await raiseToPaidPlan(tx, deps, account.organizationId, plan, event.id);
  return lifted ? `${raised}; what was owed is paid` : raised;
}

/**
 * `invoice.payment_failed`: only a renewal (`subscription_cycle`) starts the grace period (a failed
 * first checkout or upgrade never raised the plan, so there is nothing to take back). Answers the
 * outcome and the mail queued for the owner and billing members, to wake after commit.
 */
export async function applyInvoicePaymentFailed(tx: Db, deps: Pick<Deps, 'clock' | 'config' | 'metrics'>, event: Stripe.Event, account: StripeAccount): Promise<{ outcome: string; emailIds: string[] }> {
  const invoice = event.data.object as Stripe.Invoice;
  if (invoice.billing_reason !== 'subscription_cycle') return { outcome: 'ignored: not a renewal', emailIds: [] };
  const emailIds = await noteRenewalFailed(tx, deps, account.organizationId, { invoice: invoice.id ?? null });
  return { outcome: emailIds.length > 0 ? 'renewal failed: grace period started' : 'renewal failed again: grace period unchanged', emailIds };
}
