import { and, eq, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { members, organizations, users } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { paymentFailedEmail, restrictedForNonPaymentEmail } from '@/emails/payment-failed';
import type { RenderedEmail } from '@/emails/layout';
import { BILLING, recordAudit } from '../audit/record';
import { enqueueSystemEmail } from '../system-mail/queue';
import { DAY_MS } from '../shared/time';

// A renewal the payment provider could not collect (docs/billing.md, "Failed renewals"): the owner
// and the billing members are told, sending goes on for BILLING_GRACE_DAYS, then the account is
// restricted until the payment arrives. Paying lifts only the restriction non-payment caused: one
// the operator set (status_cause 'operator') stays.

type StandingDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'metrics' | 'jobs'>;

export interface PaymentStanding {
  /** When the open renewal first failed; null when nothing is owed. */
  failedAt: string | null;
  /** Until when sending goes on regardless; null when nothing is owed. */
  graceUntil: string | null;
  /** Sending is restricted because of it (not by the operator). */
  restricted: boolean;
}

export const paymentStandingOf = (organization: { paymentFailedAt: Date | null; paymentGraceUntil: Date | null; status: string; statusCause: string | null }): PaymentStanding => ({
  failedAt: organization.paymentFailedAt?.toISOString() ?? null,
  graceUntil: organization.paymentGraceUntil?.toISOString() ?? null,
  restricted: organization.status === 'restricted' && organization.statusCause === 'non_payment',
});

/** The owner's address and each billing member's, once each: who pays hears about payments. */
async function billingRecipients(tx: Db, organizationId: string, ownerEmail: string): Promise<string[]> {
  const billing = await tx
    .select({ email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, organizationId), eq(members.role, 'billing')));
  const seen = new Map<string, string>();
  for (const email of [ownerEmail, ...billing.map((row) => row.email)]) if (!seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  return [...seen.values()];
}

async function mailBilling(tx: Db, deps: Pick<Deps, 'clock' | 'metrics'>, organization: { id: string; ownerEmail: string }, kind: string, email: RenderedEmail): Promise<string[]> {
  const ids: string[] = [];
  for (const to of await billingRecipients(tx, organization.id, organization.ownerEmail)) ids.push(await enqueueSystemEmail(tx, deps, { organizationId: organization.id, kind, to, email }));
  return ids;
}

const billingUrl = (deps: Pick<Deps, 'config'>) => `${deps.config.appUrl.replace(/\/+$/, '')}/billing`;

const wake = (deps: Pick<Deps, 'jobs'>, ids: string[]) => {
  if (ids.length > 0) deps.jobs.wake('system-mail', ids);
};

/**
 * The provider reports a renewal it could not collect, in the caller's transaction (the webhook
 * stores the event in the same one). The first report of an unpaid stretch starts the grace
 * period and queues mail to the owner and billing members; the provider's later retries of the
 * same renewal change nothing and mail no one again. Answers the queued mail's ids (none when
 * this report started nothing), for the caller to wake after commit.
 */
export async function noteRenewalFailed(tx: Db, deps: Omit<StandingDeps, 'db' | 'jobs'>, organizationId: string, report: { invoice: string | null }): Promise<string[]> {
  const [organization] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for('update');
  if (!organization) throw notFound('Organization');
  if (organization.paymentFailedAt) return [];
  const now = deps.clock.now();
  const graceUntil = new Date(now.getTime() + deps.config.billingGraceDays * DAY_MS);
  await tx.update(organizations).set({ paymentFailedAt: now, paymentGraceUntil: graceUntil }).where(eq(organizations.id, organizationId));
  await recordAudit(tx, deps, {
    organizationId,
    by: BILLING,
    action: 'billing.payment_failed',
    target: { type: 'organization', id: organizationId, label: organization.name },
    details: { invoice: report.invoice, graceUntil: graceUntil.toISOString(), graceDays: deps.config.billingGraceDays },
  });
  return mailBilling(tx, deps, organization, 'payment_failed', paymentFailedEmail({ organizationName: organization.name, graceUntil, billingUrl: billingUrl(deps) }));
}

/** {@link noteRenewalFailed} in a transaction of its own, its mail woken; answers whether this report started a grace period. */
export async function recordRenewalFailed(deps: StandingDeps, organizationId: string, report: { invoice: string | null }): Promise<boolean> {
  const ids = await deps.db.transaction((tx) => noteRenewalFailed(tx, deps, organizationId, report));
  wake(deps, ids);
  return ids.length > 0;
}

/**
 * Due work: every account whose grace period has ended unpaid and is still active is restricted,
 * and its owner and billing members told. An account the operator already holds (restricted,
 * suspended or paused) keeps the operator's status and cause. Answers how many were restricted.
 */
/** An active account whose grace period after a failed renewal ran out unpaid: what the sweep restricts, and what /metrics counts as due. */
export const paymentGraceIsDue = (now: SQL): SQL => and(isNotNull(organizations.paymentGraceUntil), lte(organizations.paymentGraceUntil, now), eq(organizations.status, 'active'))!;

export async function restrictUnpaidAccounts(deps: StandingDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(paymentGraceIsDue(sql`${now.toISOString()}::timestamptz`));
  let restricted = 0;
  for (const { id } of due) {
    const ids = await deps.db.transaction(async (tx) => {
      const [organization] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
      // Paid, or held by the operator, since the list was read.
      if (!organization?.paymentGraceUntil || organization.paymentGraceUntil > now || organization.status !== 'active') return null;
      await tx.update(organizations).set({ status: 'restricted', statusCause: 'non_payment' }).where(eq(organizations.id, id));
      await recordAudit(tx, deps, {
        organizationId: id,
        by: BILLING,
        action: 'billing.restricted_for_non_payment',
        target: { type: 'organization', id, label: organization.name },
        details: { failedAt: organization.paymentFailedAt!.toISOString(), graceUntil: organization.paymentGraceUntil.toISOString() },
      });
      return mailBilling(tx, deps, organization, 'restricted_for_non_payment', restrictedForNonPaymentEmail({ organizationName: organization.name, failedAt: organization.paymentFailedAt!, billingUrl: billingUrl(deps) }));
    });
    if (ids) {
      restricted += 1;
      wake(deps, ids);
    }
  }
  return restricted;
}

/**
 * The provider reports an invoice paid, in the caller's transaction: what is owed is cleared and a
 * restriction non-payment caused is lifted at once. A status the operator set is theirs to
 * change. Answers whether anything was owed (a paid invoice with nothing owed, every ordinary
 * renewal, changes and records nothing).
 */
export async function noteRenewalPaid(tx: Db, deps: Pick<Deps, 'clock'>, organizationId: string, report: { invoice: string | null }): Promise<boolean> {
  const [organization] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for('update');
  if (!organization) throw notFound('Organization');
  if (!organization.paymentFailedAt) return false;
  const lifted = organization.status === 'restricted' && organization.statusCause === 'non_payment';
  await tx
    .update(organizations)
    .set({ paymentFailedAt: null, paymentGraceUntil: null, ...(lifted ? { status: 'active' as const, statusCause: null } : {}) })
    .where(eq(organizations.id, organizationId));
  await recordAudit(tx, deps, {
    organizationId,
    by: BILLING,
    action: 'billing.payment_recovered',
    target: { type: 'organization', id: organizationId, label: organization.name },
    details: { invoice: report.invoice, failedAt: organization.paymentFailedAt.toISOString(), restrictionLifted: lifted },
  });
  return true;
}

/** {@link noteRenewalPaid} in a transaction of its own. */
export const recordRenewalPaid = (deps: Pick<Deps, 'db' | 'clock'>, organizationId: string, report: { invoice: string | null }): Promise<boolean> =>
  deps.db.transaction((tx) => noteRenewalPaid(tx, deps, organizationId, report));
