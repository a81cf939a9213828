import { and, eq, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { requireRole } from '../organizations/owners';
import { organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict, forbidden, notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import { byPrincipal, OPERATOR, recordAudit, type AuditSource } from '../audit/record';
import { billingPeriodOf } from './billing-period';
import { effectivePlan, pendingPlanAhead, type PlanColumns } from './effective';
import { planOf, type Plan, type PlanId } from './plans';
import { recordPlanRequest, resolveOpenRequest, type PlanRequest } from './requests';
import { liveSubscriptionOf, stripeAccountOf } from '../billing/accounts';
import { startCheckout } from '../billing/checkout';
import { stripeOf } from '../billing/stripe';
import { setRenewal, upgradeSubscription } from '../billing/subscription-change';

type OrganizationRow = typeof organizations.$inferSelect;

/**
 * - upgrade: a higher monthly volume, in force at once;
 * - downgrade: a lower one, recorded and in force at the end of the billing period (at once
 *   when an operator says so);
 * - cancelled: the current plan chosen again while a change was pending, which drops it;
 * - unchanged: the current plan chosen again, nothing pending.
 */
export type PlanChangeKind = 'upgrade' | 'downgrade' | 'unchanged' | 'cancelled';

export interface PlanChange {
  kind: PlanChangeKind;
  from: PlanId;
  to: PlanId;
  /** When the organization is on `to`: now, or the first instant of the next UTC month. */
  effectiveAt: Date;
  /** Upgrades only: the price difference for what is left of the month, in euro cents. */
  proratedChargeEurCents?: number;
}

export interface PlanChangeOutcome {
  organization: OrganizationRow;
  change: PlanChange;
}

/**
 * The price difference for the rest of the billing period, by milliseconds: moving from EUR 9 to
 * EUR 36 with half the month left charges EUR 13.50.
 */
export function proratedChargeEurCents(from: Plan, to: Plan, now: Date): number {
  const { start, end } = billingPeriodOf(now);
  const remaining = (end.getTime() - now.getTime()) / (end.getTime() - start.getTime());
  return Math.round((to.priceEurCents - from.priceEurCents) * remaining);
}

/**
 * Moves an organization to another plan. Up (a higher monthly volume) takes effect at once and
 * answers the prorated charge; down is recorded as pending and applies at the first instant of
 * the next UTC month (`immediately`, for operators, applies it now). Choosing the current plan
 * again cancels a pending change. Runs under the organization's row lock, the same lock every cap
 * check takes, so no creation is counted against a plan that is changing under it.
 */
/**
 * What choosing `target` at `now` does, and the columns it writes: changePlan applies it under the
 * row lock, quotePlanChange answers it beforehand.
 */
export function decidePlanChange(
  organization: PlanColumns,
  target: Plan,
  now: Date,
  options: { immediately?: boolean } = {},
): { values: Partial<OrganizationRow>; change: PlanChange } {
  // A downgrade whose time has come is the plan already, written or not.
  const current = effectivePlan(organization, now);
  const settled = { plan: target.id, pendingPlan: null, pendingPlanAt: null };
  if (target.id === current.id) {
    return { values: settled, change: { kind: pendingPlanAhead(organization, now) ? 'cancelled' : 'unchanged', from: current.id, to: target.id, effectiveAt: now } };
  }
  if (target.monthlyEmails > current.monthlyEmails) {
    // The new-account pool starts when an organization starts paying, so leaving Free starts it anew.
    return {
      values: current.priceEurCents === 0 ? { ...settled, paidSince: now } : settled,
      change: { kind: 'upgrade', from: current.id, to: target.id, effectiveAt: now, proratedChargeEurCents: proratedChargeEurCents(current, target, now) },
    };
  }
  if (options.immediately) return { values: settled, change: { kind: 'downgrade', from: current.id, to: target.id, effectiveAt: now } };
  const effectiveAt = billingPeriodOf(now).end;
  return { values: { plan: current.id, pendingPlan: target.id, pendingPlanAt: effectiveAt }, change: { kind: 'downgrade', from: current.id, to: target.id, effectiveAt } };
}

type Tx = Parameters<Parameters<Deps['db']['transaction']>[0]>[0];

/** Reads the organization with its row lock: the lock every cap check and plan change takes. */
async function lockOrganization(tx: Tx, organizationId: string): Promise<OrganizationRow> {
  const [organization] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for('update');
  if (!organization) throw notFound('Organization');
  return organization;
}

/** Writes a decided change and its audit record, under the lock the caller holds. */
async function applyDecision(
  tx: Tx,
  deps: Pick<Deps, 'clock'>,
  organization: OrganizationRow,
  decision: ReturnType<typeof decidePlanChange>,
  by: AuditSource,
  extraDetails: Record<string, unknown> = {},
): Promise<PlanChangeOutcome> {
  const { values, change } = decision;
  const [updated] = await tx.update(organizations).set(values).where(eq(organizations.id, organization.id)).returning();
  if (change.kind !== 'unchanged') {
    await recordAudit(tx, deps, {
      organizationId: organization.id,
      by,
      action: 'organization.plan_changed',
      target: { type: 'organization', id: organization.id, label: organization.name },
      details: {
        kind: change.kind,
        from: change.from,
        to: change.to,
        effectiveAt: change.effectiveAt.toISOString(),
        ...(change.proratedChargeEurCents === undefined ? {} : { proratedChargeEurCents: change.proratedChargeEurCents }),
        ...extraDetails,
      },
    });
  }
  return { organization: updated!, change };
}

/**
 * The operator's plan change (`org:plan`), and what a paid checkout applies: any direction, at
 * once upwards. It answers the organization's open request, if any: approved when the plan is the
 * one asked for, overridden otherwise.
 */
export async function changePlan(
  deps: Pick<Deps, 'db' | 'clock'>,
  organizationId: string,
  planId: string,
  /** `by`: who asks (the audit log's actor); the operator unless said otherwise. */
  options: { immediately?: boolean; by?: AuditSource; db?: Deps['db']; auditDetails?: Record<string, unknown> } = {},
): Promise<PlanChangeOutcome> {
  const target = planOf(planId);
  // `db`: the caller's transaction (a webhook applies its event and the plan together).
  return (options.db ?? deps.db).transaction(async (tx) => {
    const organization = await lockOrganization(tx, organizationId);
    const now = deps.clock.now();
    const outcome = await applyDecision(tx, deps, organization, decidePlanChange(organization, target, now, options), options.by ?? OPERATOR, options.auditDetails);
    await resolveOpenRequest(tx, organizationId, now, (open) => (open.plan === target.id ? 'approved' : 'overridden'));
    return outcome;
  });
}

/**
 * An upgrade paid through Stripe, started and not yet paid: the Checkout page to send the person
 * to, or the subscription update whose invoice Stripe is collecting.
 */
export type PendingPayment = { kind: 'checkout'; url: string } | { kind: 'subscription_update' };

/** What a person's plan change did: changed the plan (down, or cancelling a pending change), asked for an upgrade, or started paying for one. */
export type CustomerPlanChange =
  | (PlanChangeOutcome & { request: null; payment: null })
  | { organization: OrganizationRow; change: null; request: PlanRequest; payment: null }
  | { organization: OrganizationRow; change: null; request: null; payment: PendingPayment };

/**
 * The dashboard's plan change, by the owner or a billing member signed in. A downgrade (or keeping
 * the current plan) is theirs to make, never `immediately`: it waits for the end of the period
 * paid for. An upgrade raises limits, so it is never applied here: with Stripe it is a Checkout
 * session (from Free) or a subscription update (paid to paid), and the plan rises on the signed
 * webhook that says it was paid; without a payment provider it is recorded as a request the
 * operator grants with `org:plan` (docs/billing.md).
 */
export async function changePlanAsOwner(deps: Pick<Deps, 'db' | 'clock' | 'config'>, principal: Principal, planId: string): Promise<CustomerPlanChange> {
  if (principal.userId === null) throw forbidden('Only the organization owner, signed in to the dashboard, can change the plan');
  await requireRole(deps, principal, ['owner', 'billing'], 'Only the organization owner or a billing member can change the plan');
  const target = planOf(planId);
  const by = byPrincipal(principal);
  const stripe = stripeOf(deps);
  if (stripe) {
    // Stripe is asked outside any transaction: no row lock is held across a network call.
    const [organization] = await deps.db.select().from(organizations).where(eq(organizations.id, principal.organizationId));
    if (!organization) throw notFound('Organization');
    if (decidePlanChange(organization, target, deps.clock.now()).change.kind === 'upgrade') {
      const account = await stripeAccountOf(deps.db, organization.id);
      // A second checkout now would start a second subscription beside the one being paid for.
      if (account?.paymentPendingPlan) throw conflict(`A payment for ${planOf(account.paymentPendingPlan).label} is still being processed; change the plan once it has cleared`);
      const subscription = liveSubscriptionOf(account);
      if (subscription) {
        await upgradeSubscription(deps, stripe, subscription, target.id);
        return { organization, change: null, request: null, payment: { kind: 'subscription_update' } };
      }
      const { url } = await startCheckout(deps, stripe, organization, target);
      return { organization, change: null, request: null, payment: { kind: 'checkout', url } };
    }
  }
  const outcome = await deps.db.transaction(async (tx): Promise<CustomerPlanChange> => {
    const organization = await lockOrganization(tx, principal.organizationId);
    const now = deps.clock.now();
    const decision = decidePlanChange(organization, target, now);
    if (decision.change.kind === 'upgrade') {
      const request = await recordPlanRequest(tx, deps, { organization, principal, from: effectivePlan(organization, now), to: target, by });
      return { organization, change: null, request, payment: null };
    }
    const applied = await applyDecision(tx, deps, organization, decision, by);
    // Choosing a lower plan replaces a wish for a higher one.
    if (decision.change.kind === 'downgrade') await resolveOpenRequest(tx, organization.id, now, () => 'superseded');
    return { ...applied, request: null, payment: null };
  });
  // The subscription renews as what was chosen: the lower plan's price (or cancelled, for Free),
  // or back to the current one when a pending downgrade is dropped.
  if (stripe && outcome.change && (outcome.change.kind === 'downgrade' || outcome.change.kind === 'cancelled')) {
    const subscription = liveSubscriptionOf(await stripeAccountOf(deps.db, principal.organizationId));
    if (subscription) await setRenewal(deps, stripe, subscription, outcome.change.to);
  }
  return outcome;
}

/**
 * Writes every pending change whose time has come: the plan becomes the pending one and the
 * pending columns are cleared. Cap checks do not wait for this (they read the plan in force), so
 * it only makes the row say what is already true. One statement: a concurrent changePlan holds
 * the row lock, and the statement re-checks the row after it, so a change cancelled meanwhile is
 * not applied.
 */
/** A downgrade whose billing period has ended: what the sweep writes down, and what /metrics counts as due. */
export const planChangeIsDue = (now: SQL): SQL => and(isNotNull(organizations.pendingPlan), lte(organizations.pendingPlanAt, now))!;

export async function applyDuePlanChanges(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const applied = await deps.db
    .update(organizations)
    .set({ plan: sql`${organizations.pendingPlan}`, pendingPlan: null, pendingPlanAt: null })
    .where(planChangeIsDue(sql`${deps.clock.now().toISOString()}::timestamptz`))
    .returning({ id: organizations.id });
  return applied.length;
}
