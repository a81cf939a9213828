import type { Deps } from '../../deps';
import { AppError, notFound } from '../../errors';
import { requireRole } from '../organizations/owners';
import type { Principal } from '../shared/principal';
import { stripeAccountOf } from './accounts';
import { stripeOf } from './stripe';
import type { Stripe } from './stripe-client';

const ROLE_MESSAGE = 'Only the organization owner or a billing member can see invoices and payment methods';
/** Two years of monthly invoices, with room for prorated ones: what the page lists. */
const INVOICES_SHOWN = 36;

const isoOf = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);

/** An invoice as the billing page shows it: number, period, amount (cents, its currency), status and links to Stripe's copy. */
export function invoiceView(invoice: Stripe.Invoice) {
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    periodStart: isoOf(invoice.period_start),
    periodEnd: isoOf(invoice.period_end),
    created: isoOf(invoice.created),
    amountDueCents: invoice.amount_due,
    amountPaidCents: invoice.amount_paid,
    currency: invoice.currency,
    status: invoice.status ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
    hostedUrl: invoice.hosted_invoice_url ?? null,
  };
}

/** Stripe's answer failing is the provider's outage, not the customer's mistake: said as such, to retry. */
async function fromStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new AppError('SERVICE_UNAVAILABLE', `The payment provider did not answer: ${(error as Error).message}`, { 'Retry-After': '5' });
  }
}

/**
 * The organization's invoices, newest first, as Stripe holds them (`GET /v1/invoices` for its
 * customer): for the owner and billing members. Empty without Stripe or before the first checkout.
 */
export async function listInvoices(deps: Pick<Deps, 'db' | 'config'>, principal: Principal) {
  await requireRole(deps, principal, ['owner', 'billing'], ROLE_MESSAGE);
  const stripe = stripeOf(deps);
  const account = stripe ? await stripeAccountOf(deps.db, principal.organizationId) : null;
  if (!stripe || !account) return [];
  const page = await fromStripe(() => stripe.invoices.list({ customer: account.customerId, limit: INVOICES_SHOWN }));
  return page.data.map(invoiceView);
}

/**
 * A Stripe customer-portal session, where the customer changes the payment method, billing
 * address and VAT number: the URL to send them to, returning to the billing page. NOT_FOUND
 * before the organization has a Stripe customer (its first checkout makes one).
 */
export async function customerPortalLink(deps: Pick<Deps, 'db' | 'config'>, principal: Principal): Promise<{ url: string }> {
  await requireRole(deps, principal, ['owner', 'billing'], ROLE_MESSAGE);
  const stripe = stripeOf(deps);
  const account = stripe ? await stripeAccountOf(deps.db, principal.organizationId) : null;
  if (!stripe || !account) throw notFound('Stripe customer');
  const session = await fromStripe(() => stripe.billingPortal.sessions.create({ customer: account.customerId, return_url: `${deps.config.appUrl}/billing` }));
  return { url: session.url };
}
