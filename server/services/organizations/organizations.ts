import { asc, eq, sql } from 'drizzle-orm';
import { members, organizations, stripeAccounts, usageCounters } from '@/db/schema';
import { utcDay, utcMonth } from '../plans/calendar';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { effectivePlan, pendingPlanAhead } from '../plans/effective';
import { planOf } from '../plans/plans';
import { issueApiKey, recordKeyCreated } from '../api-keys/keys';
import { OPERATOR, recordAudit, type AuditSource } from '../audit/record';
import type { AuditAction } from '../../vocabulary/audit';
import type { Mode } from '../../vocabulary/api-keys';
import { mailConfirmationLink } from './owner-confirmation';
import { noticeAddressOf } from './notice-address';
import { organizationName } from './name';
import { isOrganizationStatus, ORGANIZATION_STATUSES } from '../../vocabulary/organization-statuses';


export type Organization = typeof organizations.$inferSelect;

async function createOrganization(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  input: { name: string; ownerEmail: string; plan?: string; createdAt?: Date; ownerUserId?: string; ownerConfirmed: boolean },
): Promise<Organization> {
  const plan = planOf(input.plan ?? 'free');
  const name = organizationName(input.name);
  const now = deps.clock.now();
  const createdAt = input.createdAt ?? now;
  const [organization] = await tx
    .insert(organizations)
    // Created on a paid volume, it has paid since it exists: the new-account pool starts then.
    .values({ id: newId(), name, plan: plan.id, ownerEmail: input.ownerEmail.trim().toLowerCase(), createdAt, paidSince: plan.priceEurCents > 0 ? createdAt : null, ownerConfirmedAt: input.ownerConfirmed ? now : null })
    .returning();
  // The counters exist from the start, so that the first send moves them with the same plain update as every later one.
  await tx.insert(usageCounters).values({ organizationId: organization!.id, day: utcDay(now), month: utcMonth(now) });
  if (input.ownerUserId) {
    await tx.insert(members).values({ id: newId(), organizationId: organization!.id, userId: input.ownerUserId, role: 'owner', createdAt: now });
  }
  return organization!;
}

/** The operator's org:create: an organization and its first full_access live key. The operator vouches for the owner's address: confirmed at once. */
export async function createOrganizationWithKey(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { name: string; ownerEmail: string; plan?: string; createdAt?: Date; keyMode?: Mode },
): Promise<{ organizationId: string; apiKey: string }> {
  return deps.db.transaction(async (tx) => {
    const { keyMode = 'live', ...organizationInput } = input;
    const organization = await createOrganization(tx, deps, { ...organizationInput, ownerConfirmed: true });
    const issued = await issueApiKey(tx, deps, {
      organizationId: organization.id,
      name: 'Default key',
      permission: 'full_access',
      // A test key for the README's first send: it sends from the sandbox at once, and nothing leaves.
      mode: keyMode,
      domainId: null,
    });
    await recordKeyCreated(tx, deps, issued.record, OPERATOR);
    return { organizationId: organization.id, apiKey: issued.key };
  });
}

export async function getOrganization(deps: Pick<Deps, 'db'>, id: string): Promise<Organization> {
  const [organization] = await deps.db.select().from(organizations).where(eq(organizations.id, id));
  if (!organization) throw notFound('Organization');
  return organization;
}

async function organizationOfUser(deps: Pick<Deps, 'db'>, userId: string): Promise<Organization | null> {
  const [row] = await deps.db
    .select({ organization: organizations })
    .from(members)
    .innerJoin(organizations, eq(members.organizationId, organizations.id))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt))
    .limit(1);
  return row?.organization ?? null;
}

/**
 * The organization a person acts for. Sign-up creates it in an auth hook outside the user's
 * own transaction; if that ever failed, the person gets one here instead of being locked out.
 * A lock on the person keeps two concurrent first requests from making two (a person may belong
 * to several organizations, so no unique index does it).
 * Its owner's address is unconfirmed: the link to confirm it is mailed with the organization.
 */
export async function ensureOrganizationOfUser(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'jobs' | 'metrics'>, user: { id: string; name: string; email: string }): Promise<Organization> {
  const existing = await organizationOfUser(deps, user.id);
  if (existing) return existing;
  const made = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`organization-of:${user.id}`}))`);
    const again = await organizationOfUser({ db: tx }, user.id);
    if (again) return { organization: again, emailId: null };
    const created = await createOrganization(tx, deps, { name: user.name ? `${user.name}'s organization` : user.email, ownerEmail: user.email, plan: 'free', ownerUserId: user.id, ownerConfirmed: false });
    return { organization: created, emailId: await mailConfirmationLink(tx, deps, created) };
  });
  if (made.emailId) deps.jobs.wake('system-mail', made.emailId);
  return made.organization;
}

/**
 * What the dashboard shows of an organization: its name, the plan in force and its limits, and a
 * downgrade waiting for the end of the billing period (null when none is).
 */
export async function describeOrganization(deps: Pick<Deps, 'db' | 'clock'>, id: string) {
  const organization = await getOrganization(deps, id);
  const now = deps.clock.now();
  const plan = effectivePlan(organization, now);
  const pending = pendingPlanAhead(organization, now);
  return {
    id: organization.id,
    name: organization.name,
    status: organization.status,
    /** Live sending waits until the owner's address is confirmed (confirmedAt null: not yet). */
    owner: { email: organization.ownerEmail, confirmedAt: organization.ownerConfirmedAt?.toISOString() ?? null },
    /** Where the service's own mail goes: the confirmed notification address, else the owner's. */
    notificationEmail: noticeAddressOf(organization),
    /** A deletion asked for and not yet erased (keys and sending are stopped); null when none is. */
    deletion: organization.deletionRequestedAt ? { requestedAt: organization.deletionRequestedAt.toISOString(), eraseAfter: organization.eraseAfter!.toISOString() } : null,
    plan: { id: plan.id, label: plan.label, monthlyEmails: plan.monthlyEmails, apiKeys: plan.apiKeys, domains: plan.domains },
    pendingPlan: pending ? { id: pending.plan.id, label: pending.plan.label, monthlyEmails: pending.plan.monthlyEmails, effectiveAt: pending.at.toISOString() } : null,
  };
}

type Setting = 'status' | 'reviewed' | 'overageEnabled' | 'rateLimitOverride';

const SETTING_ACTIONS: Record<Setting, AuditAction> = {
  status: 'organization.status_changed',
  reviewed: 'organization.review_changed',
  overageEnabled: 'organization.overage_changed',
  rateLimitOverride: 'organization.rate_limit_changed',
};

/**
 * Changes one setting under the organization's row lock and records it (from, to) in the same
 * transaction; setting it to what it already is changes and records nothing.
 */
async function changeSetting<K extends Setting>(deps: Pick<Deps, 'db' | 'clock'>, id: string, setting: K, value: Organization[K], by: AuditSource): Promise<Organization> {
  return deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
    if (!current) throw notFound('Organization');
    if (current[setting] === value) return current;
    const [organization] = await tx
      .update(organizations)
      .set({ [setting]: value })
      .where(eq(organizations.id, id))
      .returning();
    await recordAudit(tx, deps, {
      organizationId: id,
      by,
      action: SETTING_ACTIONS[setting],
      target: { type: 'organization', id, label: current.name },
      details: { from: current[setting], to: value },
    });
    return organization!;
  });
}

// Who changed it is always said: OPERATOR for the CLI, the principal's source for a dashboard or API change.
export async function setStatus(deps: Pick<Deps, 'db' | 'clock'>, id: string, status: string, by: AuditSource) {
  if (!isOrganizationStatus(status)) {
    throw validationError(`status must be one of ${ORGANIZATION_STATUSES.join(', ')}`);
  }
  const organization = await changeSetting(deps, id, 'status', status, by);
  // The status is now the operator's decision: a later payment no longer lifts it (docs/billing.md).
  await deps.db.update(stripeAccounts).set({ restrictedForNonPayment: false }).where(eq(stripeAccounts.organizationId, id));
  return organization;
}

export const setReviewed = (deps: Pick<Deps, 'db' | 'clock'>, id: string, reviewed: boolean, by: AuditSource) => changeSetting(deps, id, 'reviewed', reviewed, by);
export const setOverage = (deps: Pick<Deps, 'db' | 'clock'>, id: string, enabled: boolean, by: AuditSource) => changeSetting(deps, id, 'overageEnabled', enabled, by);

export function setRateLimit(deps: Pick<Deps, 'db' | 'clock'>, id: string, requestsPerWindow: number | null, by: AuditSource) {
  if (requestsPerWindow !== null && (!Number.isInteger(requestsPerWindow) || requestsPerWindow < 1)) {
    throw validationError('the rate limit must be a whole number of requests, at least 1');
  }
  return changeSetting(deps, id, 'rateLimitOverride', requestsPerWindow, by);
}
