import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict, notFound, type AppError } from '../../errors';
import type { Principal } from '../shared/principal';
import type { DomainSummary, DomainView } from './view';

/*
 * The sandbox as one of every organization's domains (docs/domains.md, "Sandbox domain"): no row
 * stands behind it, so it costs no registration, never counts against the plan's domain cap, and
 * one id (sandboxDomainId) names it everywhere.
 */

/** Since when the organization has had the sandbox: its own creation, so the value never moves. */
async function organizationCreatedAt(deps: Pick<Deps, 'db'>, organizationId: string): Promise<Date> {
  const [organization] = await deps.db.select({ createdAt: organizations.createdAt }).from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw notFound('Organization');
  return organization.createdAt;
}

export async function sandboxSummary(deps: Pick<Deps, 'db' | 'sandbox'>, principal: Pick<Principal, 'organizationId'>): Promise<DomainSummary> {
  const createdAt = await organizationCreatedAt(deps, principal.organizationId);
  return {
    id: deps.sandbox.id,
    name: deps.sandbox.name,
    status: 'verified',
    sandbox: true,
    isPolling: false,
    lastCheckedAt: null,
    nextCheckAt: null,
    missingRecords: [],
    createdAt: createdAt.toISOString(),
  };
}

/**
 * The sandbox as `GET /domains/{id}` shows it: verified, its DKIM key, and no records, because
 * the customer publishes nothing for it (the operator does: `npm run admin -- sandbox:records`).
 */
export async function sandboxView(deps: Pick<Deps, 'db' | 'sandbox'>, principal: Pick<Principal, 'organizationId'>): Promise<DomainView> {
  const summary = await sandboxSummary(deps, principal);
  return {
    ...summary,
    region: 'eu',
    returnPath: deps.sandbox.returnPath,
    openTracking: false,
    clickTracking: false,
    dkim: { selector: deps.sandbox.selector, publicKey: deps.sandbox.publicKey },
    records: [],
    verifiedAt: summary.createdAt,
    failureReason: null,
  };
}

/** 409 for a change to the sandbox, which belongs to the service, not to the organization. */
export const sandboxIsShared = (what: string): AppError => conflict(`The shared sandbox domain cannot be ${what}: it belongs to the service and is always verified`);
