import { and, eq, inArray, lte } from 'drizzle-orm';
import { members, organizations, stripeAccounts, users } from '@/db/schema';
import type { Db } from '@/db/client';
import { paymentFailedEmail } from '@/emails/payment-failed';
import type { Deps } from '../../deps';
import { OPERATOR, recordAudit } from '../audit/record';
import { enqueueSystemEmail } from '../system-mail/queue';
import type { StripeAccount } from './accounts';
import type { Stripe } from './stripe-client';

const DAY_MS = 86_400_000;

/** Where a failed payment is told: the owner and every billing member, each address once. */
async function billingAddressesOf(tx: Db, organizationId: string): Promise<string[]> {
  const rows = await tx
    .select({ email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, organizationId), inArray(members.role, ['owner', 'billing'])));
  return [...new Set(rows.map((row) => row.email.toLowerCase()))].sort();
}

/**
 * `invoice.payment_failed`: the first failure of a renewal starts the grace period
 * (BILLING_GRACE_DAYS) and mails the owner and the billing members; Stripe's own retries failing
 * again change nothing more (one mail per unpaid episode). Sending continues meanwhile.
 */
export async function applyPaymentFailed(tx: Db, deps: Pick<Deps, 'clock' | 'config' | 'metrics'>, event: Stripe.Event, account: StripeAccount): Promise<{ outcome: string; emailIds: string[] }> {
  // A renewal only: a first checkout or an upgrade that fails leaves the plan as it was, nothing to restrict.
  if ((event.data.object as Stripe.Invoice).billing_reason !== 'subscription_cycle') return { outcome: 'ignored: not a renewal', emailIds: [] };
  if (account.paymentFailedAt) return { outcome: `payment failed again: grace until ${account.graceUntil?.toISOString()}`, emailIds: [] };
  const now = deps.clock.now();
  const graceUntil = new Date(now.getTime() + deps.config.billingGraceDays * DAY_MS);
  await tx.update(stripeAccounts).set({ paymentFailedAt: now, graceUntil }).where(eq(stripeAccounts.organizationId, account.organizationId));
  const [organization] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, account.organizationId));
  const email = paymentFailedEmail({ organizationName: organization?.name ?? 'your organization', graceUntil, billingUrl: `${deps.config.appUrl}/billing` });
  const emailIds: string[] = [];
  for (const to of await billingAddressesOf(tx, account.organizationId)) {
    emailIds.push(await enqueueSystemEmail(tx, deps, { organizationId: account.organizationId, kind: 'payment_failed', to, email }));
  }
  return { outcome: `payment failed: grace until ${graceUntil.toISOString()}`, emailIds };
}

/**
 * A payment succeeded: the unpaid episode ends. A restriction is lifted only when non-payment set
 * it and the account is still `restricted`: one an operator set (for abuse, say) is never touched.
 */
export async function settleNonPayment(tx: Db, deps: Pick<Deps, 'clock'>, account: StripeAccount, eventId: string): Promise<boolean> {
  if (!account.paymentFailedAt && !account.restrictedForNonPayment) return false;
  await tx.update(stripeAccounts).set({ paymentFailedAt: null, graceUntil: null, restrictedForNonPayment: false }).where(eq(stripeAccounts.organizationId, account.organizationId));
  if (!account.restrictedForNonPayment) return false;
  const [lifted] = await tx
    .update(organizations)
    .set({ status: 'active' })
    .where(and(eq(organizations.id, account.organizationId), eq(organizations.status, 'restricted')))
    .returning({ name: organizations.name });
  if (!lifted) return false;
  await recordAudit(tx, deps, {
    organizationId: account.organizationId,
    by: OPERATOR,
    action: 'organization.status_changed',
    target: { type: 'organization', id: account.organizationId, label: lifted.name },
    details: { from: 'restricted', to: 'active', via: 'stripe', reason: 'paid', stripeEventId: eventId },
  });
  return true;
}

/**
 * The sweep: every organization whose grace period has run out unpaid, and that is `active`, is
 * `restricted`, marked as restricted for non-payment so that paying lifts it. One whose status an
 * operator changed meanwhile is left as the operator set it.
 */
export async function restrictUnpaidOrganizations(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ organizationId: stripeAccounts.organizationId })
    .from(stripeAccounts)
    .innerJoin(organizations, eq(organizations.id, stripeAccounts.organizationId))
    .where(and(lte(stripeAccounts.graceUntil, now), eq(stripeAccounts.restrictedForNonPayment, false), eq(organizations.status, 'active')));
  let restricted = 0;
  for (const { organizationId } of due) {
    const done = await deps.db.transaction(async (tx) => {
      // Re-checked under the lock: a payment or an operator may have come in since the read.
      const [organization] = await tx.select({ status: organizations.status, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).for('update');
      const [account] = await tx.select().from(stripeAccounts).where(eq(stripeAccounts.organizationId, organizationId));
      if (organization?.status !== 'active' || !account?.graceUntil || account.graceUntil > now || account.restrictedForNonPayment) return false;
      await tx.update(organizations).set({ status: 'restricted' }).where(eq(organizations.id, organizationId));
      await tx.update(stripeAccounts).set({ restrictedForNonPayment: true }).where(eq(stripeAccounts.organizationId, organizationId));
      await recordAudit(tx, deps, {
        organizationId,
        by: OPERATOR,
        action: 'organization.status_changed',
        target: { type: 'organization', id: organizationId, label: organization.name },
        details: { from: 'active', to: 'restricted', via: 'stripe', reason: 'unpaid', graceUntil: account.graceUntil.toISOString() },
      });
      return true;
    });
    if (done) restricted += 1;
  }
  return restricted;
}
