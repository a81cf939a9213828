import { and, count, desc, eq, sql } from 'drizzle-orm';
import { dkimKeys, domains } from '@/db/schema';
import type { Db } from '@/db/client';
import { generateDkimKeyPair } from '../../crypto/dkim-keys';
import { seal } from '../../crypto/secret-box';
import type { Deps } from '../../deps';
import { AppError, conflict } from '../../errors';
import { newId } from '../../ids';
import { revokeKeysPinnedTo } from '../api-keys/keys';
import { planInForce } from '../plans/effective';
import { recordEvent } from '../shared/events';
import type { Principal } from '../shared/principal';
import { checkDomainConnect, type DomainConnectAnswer } from './connect';
import { normalizeDomainName, normalizeReturnPath } from './names';
import { activeKey, ownDomain } from './repo';
import { sandboxIsShared, sandboxSummary, sandboxView } from './sandbox-view';
import { summary, view, type DomainSummary, type DomainView } from './view';
import { byPrincipal, recordAudit } from '../audit/record';

interface RegisterDomainInput {
  name: string;
  returnPath?: string;
  openTracking?: boolean;
  clickTracking?: boolean;
}

/** PLAN_LIMIT_EXCEEDED when the organization has as many domains as its plan in force allows. */
async function refuseAtDomainCap(db: Db, organizationId: string, now: Date, lock: boolean): Promise<void> {
  const plan = await planInForce(db, organizationId, now, { lock });
  const [{ value: existing } = { value: 0 }] = await db.select({ value: count() }).from(domains).where(eq(domains.organizationId, organizationId));
  if (plan.domains !== null && existing >= plan.domains) {
    throw new AppError('PLAN_LIMIT_EXCEEDED', `The ${plan.label} plan allows ${plan.domains} domain${plan.domains === 1 ? '' : 's'}; delete one or upgrade`);
  }
}

/** Registers a domain with a fresh DKIM key and starts polling DNS for its records at once. */
export async function registerDomain(deps: Deps, principal: Principal, input: RegisterDomainInput): Promise<DomainView> {
  const sandbox = deps.config.sandboxDomain;
  const asGiven = input.name.trim().toLowerCase().replace(/\.$/, '');
  if (asGiven === sandbox || asGiven.endsWith(`.${sandbox}`)) {
    throw conflict(`${asGiven} is the shared sandbox domain; register a domain of your own`);
  }
  const name = normalizeDomainName(input.name);
  const returnPath = normalizeReturnPath(input.returnPath ?? 'send');
  // Refused before the key is made: a 2048-bit key costs 20-30 times a refusal.
  await refuseAtDomainCap(deps.db, principal.organizationId, deps.clock.now(), false);
  const pair = await generateDkimKeyPair();
  const now = deps.clock.now();
  const created = await deps.db.transaction(async (tx) => {
    // Again under the organization's row lock, which serialises registrations, so the cap holds.
    await refuseAtDomainCap(tx, principal.organizationId, now, true);
    const [taken] = await tx
      .select({ organizationId: domains.organizationId })
      .from(domains)
      .where(and(eq(domains.name, name), sql`(${domains.organizationId} = ${principal.organizationId} or ${domains.verifiedAt} is not null)`))
      .limit(1);
    if (taken?.organizationId === principal.organizationId) throw conflict(`${name} is already registered on this account`);
    if (taken) throw conflict(`${name} is already verified on another account`);
    const [row] = await tx
      .insert(domains)
      .values({
        id: newId(),
        organizationId: principal.organizationId,
        name,
        status: 'pending',
        returnPath,
        openTracking: input.openTracking ?? false,
        clickTracking: input.clickTracking ?? false,
        recordStatuses: { DKIM: 'pending', MX: 'pending', SPF: 'pending', DMARC: 'pending' },
        chainStartedAt: now,
        nextCheckAt: now,
        createdAt: now,
      })
      .returning();
    const [key] = await tx
      .insert(dkimKeys)
      .values({
        id: newId(),
        domainId: row!.id,
        organizationId: principal.organizationId,
        selector: pair.selector,
        publicKey: pair.publicKey,
        privateKeyEncrypted: seal(pair.privateKeyPem, deps.encryptionKey),
        createdAt: now,
      })
      .returning();
    await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'domain.created', data: { domainId: row!.id, name, status: 'pending' } });
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'domain.created', target: { type: 'domain', id: row!.id, label: name }, details: { openTracking: row!.openTracking, clickTracking: row!.clickTracking } });
    return view(deps, row!, key!);
  });
  deps.jobs.wake('domain-check', created.id);
  return created;
}

/** The organization's domains, newest first, then the shared sandbox: always last, so the list's order is the rows' order. */
export async function listDomains(deps: Pick<Deps, 'db' | 'sandbox'>, principal: Principal): Promise<DomainSummary[]> {
  const [rows, sandbox] = await Promise.all([
    deps.db.select().from(domains).where(eq(domains.organizationId, principal.organizationId)).orderBy(desc(domains.id)),
    sandboxSummary(deps, principal),
  ]);
  return [...rows.map(summary), sandbox];
}

export async function getDomain(deps: Pick<Deps, 'db' | 'config' | 'sandbox'>, principal: Principal, id: string): Promise<DomainView> {
  if (id === deps.sandbox.id) return sandboxView(deps, principal);
  const row = await ownDomain(deps.db, principal, id);
  return view(deps, row, await activeKey(deps.db, row.id));
}

/** Whether the customer's DNS provider can apply this domain's records with Domain Connect, evaluated now. */
export async function domainConnectFor(deps: Pick<Deps, 'db' | 'config' | 'sandbox'>, principal: Principal, id: string): Promise<DomainConnectAnswer> {
  if (id === deps.sandbox.id) return { supported: false, reason: 'The shared sandbox domain needs no records from you: it is ready to send from' };
  const domain = await getDomain(deps, principal, id);
  return checkDomainConnect(deps, { name: domain.name, records: domain.records });
}

export interface DomainSettings {
  openTracking?: boolean;
  clickTracking?: boolean;
}

const TRACKING_SETTINGS = ['openTracking', 'clickTracking'] as const satisfies (keyof DomainSettings)[];

/**
 * Changes the domain's tracking defaults. They are read when a message is accepted, so they apply
 * to mail accepted from now on (the rest of a broadcast in flight included); mail already accepted
 * keeps what it was accepted with. Recorded in the audit log when something changed.
 */
export async function updateDomain(deps: Deps, principal: Principal, id: string, input: DomainSettings): Promise<DomainView> {
  if (id === deps.sandbox.id) throw sandboxIsShared('changed');
  return deps.db.transaction(async (tx) => {
    const before = await ownDomain(tx, principal, id, { lock: true });
    const details: Partial<Record<keyof DomainSettings, { from: boolean; to: boolean }>> = {};
    for (const setting of TRACKING_SETTINGS) {
      const to = input[setting];
      if (to !== undefined && to !== before[setting]) details[setting] = { from: before[setting], to };
    }
    const changed = Object.entries(details).map(([setting, change]) => [setting, change.to]);
    if (changed.length === 0) return view(deps, before, await activeKey(tx, before.id));
    const [row] = await tx.update(domains).set(Object.fromEntries(changed)).where(eq(domains.id, before.id)).returning();
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'domain.updated', target: { type: 'domain', id: row!.id, label: row!.name }, details });
    return view(deps, row!, await activeKey(tx, row!.id));
  });
}

/** Deletes the domain, retires its DKIM key (the private key is wiped) and revokes the keys pinned to it, all at once. */
export async function deleteDomain(deps: Deps, principal: Principal, id: string): Promise<void> {
  if (id === deps.sandbox.id) throw sandboxIsShared('deleted');
  await deps.db.transaction(async (tx) => {
    const row = await ownDomain(tx, principal, id);
    const now = deps.clock.now();
    await tx.update(dkimKeys).set({ retiredAt: now, privateKeyEncrypted: null }).where(eq(dkimKeys.domainId, row.id));
    const by = byPrincipal(principal);
    await revokeKeysPinnedTo(tx, deps, principal.organizationId, row.id, by);
    await tx.delete(domains).where(eq(domains.id, row.id));
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by, action: 'domain.deleted', target: { type: 'domain', id: row.id, label: row.name } });
    await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'domain.deleted', data: { domainId: row.id, name: row.name } });
  });
}

/** "Verify now": a check chain starts at once instead of at the next scheduled poll. */
export async function requestVerification(deps: Deps, principal: Principal, id: string): Promise<void> {
  if (id === deps.sandbox.id) throw sandboxIsShared('verified again');
  const row = await ownDomain(deps.db, principal, id);
  const now = deps.clock.now();
  const restart = row.status === 'failed' || row.status === 'not_started';
  await deps.db
    .update(domains)
    .set({
      nextCheckAt: now,
      checkAttempts: 0,
      ...(row.status === 'verified' ? {} : { chainStartedAt: restart || !row.chainStartedAt ? now : row.chainStartedAt }),
      ...(restart ? { status: 'pending', failureReason: null } : {}),
    })
    .where(eq(domains.id, row.id));
  deps.jobs.wake('domain-check', row.id);
}
