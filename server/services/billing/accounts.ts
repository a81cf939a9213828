import { eq } from 'drizzle-orm';
import { stripeAccounts } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import type { Stripe } from './stripe-client';

export type StripeAccount = typeof stripeAccounts.$inferSelect;

/** Subscription statuses that bill the customer: a change of plan updates this subscription rather than starting another. */
export const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);

export async function stripeAccountOf(db: Db, organizationId: string): Promise<StripeAccount | null> {
  const [account] = await db.select().from(stripeAccounts).where(eq(stripeAccounts.organizationId, organizationId));
  return account ?? null;
}

export async function stripeAccountByCustomer(db: Db, customerId: string): Promise<StripeAccount | null> {
  const [account] = await db.select().from(stripeAccounts).where(eq(stripeAccounts.customerId, customerId));
  return account ?? null;
}

/** The subscription a plan change updates, or null when the organization has none that bills. */
export const liveSubscriptionOf = (account: StripeAccount | null): string | null =>
  account?.subscriptionId && account.subscriptionStatus && LIVE_STATUSES.has(account.subscriptionStatus) ? account.subscriptionId : null;

/**
 * The organization's Stripe customer, made on its first checkout and kept: one customer per
 * organization, so its invoices, tax ids and payment methods stay together. Two checkouts started
 * at once send the same idempotency key, so Stripe answers both with one customer; the insert
 * that loses keeps the winner's row.
 */
export async function ensureStripeCustomer(
  deps: Pick<Deps, 'db' | 'clock'>,
  stripe: Stripe,
  organization: { id: string; name: string; ownerEmail: string },
): Promise<StripeAccount> {
  const known = await stripeAccountOf(deps.db, organization.id);
  if (known) return known;
  const customer = await stripe.customers.create(
    { email: organization.ownerEmail, name: organization.name, metadata: { organizationId: organization.id } },
    { idempotencyKey: `customer:${organization.id}` },
  );
  await deps.db.insert(stripeAccounts).values({ organizationId: organization.id, customerId: customer.id, createdAt: deps.clock.now() }).onConflictDoNothing();
  return (await stripeAccountOf(deps.db, organization.id))!;
}
