import { and, asc, eq, isNull } from 'drizzle-orm';
import { organizations, planChangeRequests, users, type PlanRequestResolution } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import { notFound } from '../../errors';
import { byPrincipal, recordAudit, type AuditSource } from '../audit/record';
import { requireRole } from '../organizations/owners';
import type { Principal } from '../shared/principal';
import type { Plan } from './plans';

export type PlanRequest = typeof planChangeRequests.$inferSelect;

/** The organization's open request, or null. */
export async function openPlanRequest(db: Db, organizationId: string): Promise<PlanRequest | null> {
  const [open] = await db
    .select()
    .from(planChangeRequests)
    .where(and(eq(planChangeRequests.organizationId, organizationId), isNull(planChangeRequests.resolvedAt)));
  return open ?? null;
}

/** Closes the organization's open request, if any, saying why; answers the request as it was. */
export async function resolveOpenRequest(tx: Db, organizationId: string, now: Date, resolution: (open: PlanRequest) => PlanRequestResolution): Promise<PlanRequest | null> {
  const open = await openPlanRequest(tx, organizationId);
  if (!open) return null;
  await tx.update(planChangeRequests).set({ resolvedAt: now, resolution: resolution(open) }).where(eq(planChangeRequests.id, open.id));
  return open;
}

/**
 * Records a person's upgrade as a request for the operator, replacing an open one (one open request
 * per organization: the latest choice is what the customer wants). Runs inside the caller's
 * transaction, under the organization's row lock. Nothing about the plan changes.
 */
export async function recordPlanRequest(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  request: { organization: { id: string; name: string }; principal: Principal; from: Plan; to: Plan; by: AuditSource },
): Promise<PlanRequest> {
  const now = deps.clock.now();
  await resolveOpenRequest(tx, request.organization.id, now, () => 'superseded');
  const [person] = request.principal.userId ? await tx.select({ email: users.email }).from(users).where(eq(users.id, request.principal.userId)) : [];
  const [created] = await tx
    .insert(planChangeRequests)
    .values({
      id: newId(),
      organizationId: request.organization.id,
      fromPlan: request.from.id,
      plan: request.to.id,
      requestedBy: request.principal.userId,
      requestedByEmail: person?.email ?? '',
      requestedAt: now,
    })
    .returning();
  await recordAudit(tx, deps, {
    organizationId: request.organization.id,
    by: request.by,
    action: 'organization.plan_requested',
    target: { type: 'organization', id: request.organization.id, label: request.organization.name },
    details: { from: request.from.id, to: request.to.id },
  });
  return created!;
}

/**
 * The customer takes their request back (the billing page's "Withdraw"): the owner or a billing
 * member, signed in (an API key is FORBIDDEN, as for the plan change); NOT_FOUND when none is open.
 */
export async function withdrawPlanRequest(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<void> {
  await requireRole(deps, principal, ['owner', 'billing'], 'Only the organization owner or a billing member can withdraw a plan change request');
  const organizationId = principal.organizationId;
  const by = byPrincipal(principal);
  await deps.db.transaction(async (tx) => {
    const [organization] = await tx.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).for('update');
    if (!organization) throw notFound('Organization');
    const withdrawn = await resolveOpenRequest(tx, organizationId, deps.clock.now(), () => 'withdrawn');
    if (!withdrawn) throw notFound('Plan change request');
    await recordAudit(tx, deps, {
      organizationId,
      by,
      action: 'organization.plan_request_withdrawn',
      target: { type: 'organization', id: organizationId, label: organization.name },
      details: { from: withdrawn.fromPlan, to: withdrawn.plan },
    });
  });
}

/** Every open request, oldest first: the operator's `org:requests`. */
export async function listOpenPlanRequests(deps: Pick<Deps, 'db'>) {
  const rows = await deps.db
    .select({ request: planChangeRequests, organization: { name: organizations.name, plan: organizations.plan, ownerEmail: organizations.ownerEmail } })
    .from(planChangeRequests)
    .innerJoin(organizations, eq(organizations.id, planChangeRequests.organizationId))
    .where(isNull(planChangeRequests.resolvedAt))
    .orderBy(asc(planChangeRequests.requestedAt), asc(planChangeRequests.id));
  return rows.map(({ request, organization }) => ({
    requestId: request.id,
    organizationId: request.organizationId,
    name: organization.name,
    ownerEmail: organization.ownerEmail,
    currentPlan: organization.plan,
    requestedPlan: request.plan,
    requestedBy: request.requestedByEmail,
    requestedAt: request.requestedAt.toISOString(),
    approve: `npm run admin -- org:plan --org ${request.organizationId} --plan ${request.plan}`,
  }));
}
