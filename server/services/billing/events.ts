import { eq } from 'drizzle-orm';
import { stripeEvents } from '@/db/schema';
import type { Deps } from '../../deps';
import { stripeAccountByCustomer } from './accounts';
import { applyCheckoutEvent } from './apply-checkout';
import { applyInvoicePaid, applyInvoicePaymentFailed, subscriptionIdOfInvoice } from './apply-invoice';
import { applySubscriptionEvent } from './apply-subscription';
import { idOf, stripeOf } from './stripe';
import type { Stripe } from './stripe-client';

export interface AppliedStripeEvent {
  /** The event was stored before: nothing was applied again. */
  duplicate: boolean;
  /** What applying it did, as stored with it. */
  outcome: string;
}

const CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired']);
const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']);

/** The customer an event's object belongs to (every event this service applies has one). */
const customerOf = (event: Stripe.Event): string | null => idOf((event.data.object as { customer?: string | { id: string } | null }).customer);

/**
 * Applies a verified Stripe event exactly once: it is stored by id in the same transaction that
 * applies it, so a redelivery (Stripe retries until it gets a 2xx, and may deliver twice) finds
 * the row and changes nothing, and a failure stores nothing and is retried. Events of customers
 * this service did not make are stored and ignored.
 */
export async function applyStripeEvent(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'jobs' | 'metrics'>, event: Stripe.Event): Promise<AppliedStripeEvent> {
  const stripe = stripeOf(deps);
  if (!stripe) throw new Error('Stripe is not configured');
  // What Stripe holds now for the subscription an invoice paid for, asked before any row is locked.
  let paidSubscription: Stripe.Subscription | null = null;
  if (event.type === 'invoice.paid') {
    const subscriptionId = subscriptionIdOfInvoice(event.data.object as Stripe.Invoice);
    if (subscriptionId) paidSubscription = await stripe.subscriptions.retrieve(subscriptionId);
  }
  const emailIds: string[] = [];
  const applied = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const [stored] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, createdAt: new Date(event.created * 1000), receivedAt: now, outcome: 'received' })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!stored) {
      const [prior] = await tx.select({ outcome: stripeEvents.outcome }).from(stripeEvents).where(eq(stripeEvents.id, event.id));
      return { duplicate: true, outcome: prior?.outcome ?? 'received' };
    }
    const customerId = customerOf(event);
    const account = customerId ? await stripeAccountByCustomer(tx, customerId) : null;
    let outcome: string;
    if (!account) outcome = 'ignored: no organization has this customer';
    else if (CHECKOUT_EVENTS.has(event.type)) outcome = await applyCheckoutEvent(tx, deps, event, account);
    else if (event.type === 'invoice.paid') outcome = await applyInvoicePaid(tx, deps, event, account, paidSubscription);
    else if (SUBSCRIPTION_EVENTS.has(event.type)) outcome = await applySubscriptionEvent(tx, deps, event, account);
    else if (event.type === 'invoice.payment_failed') {
      const failed = await applyInvoicePaymentFailed(tx, deps, event, account);
      emailIds.push(...failed.emailIds);
      outcome = failed.outcome;
    }
    else outcome = `ignored: ${event.type} is not applied`;
    await tx.update(stripeEvents).set({ outcome, organizationId: account?.organizationId ?? null }).where(eq(stripeEvents.id, event.id));
    return { duplicate: false, outcome };
  });
  // The mail goes once its rows are committed.
  for (const id of emailIds) deps.jobs.wake('system-mail', id);
  return applied;
}
