import { and, asc, count, desc, eq, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import { dkimKeys, domains, organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import { generateDkimKeyPair } from '../crypto/dkim-keys';
import { open, seal } from '../crypto/secret-box';
import type { Deps } from '../deps';
import { AppError, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { revokeKeysPinnedTo } from './api-keys';
import { checkDomainConnect, type DomainConnectAnswer } from './domain-connect';
import { checkDomainRecords, type RecordStatuses } from './domain-dns-check';
import { normalizeDomainName, normalizeReturnPath } from './domain-names';
import { buildDomainRecords, type DnsRecord } from './domain-records';
import { CHAIN_LIMIT_MS, CHECK_LEASE_MS, chainDelayMs, RECHECK_VERIFIED_MS, TRANSIENT_RETRY_MS } from './domain-schedule';
import { recordEvent } from './events';
import { planOf } from './plans';
import type { Principal } from './principal';

export type DomainStatus = 'not_started' | 'pending' | 'verified' | 'partially_verified' | 'failed' | 'temporary_failure';
type DomainRow = typeof domains.$inferSelect;
type DkimKeyRow = typeof dkimKeys.$inferSelect;

export interface DomainSummary {
  id: string;
  name: string;
  status: DomainStatus;
  isPolling: boolean;
  createdAt: string;
}

export interface DomainView extends DomainSummary {
  region: 'eu';
  returnPath: string;
  openTracking: boolean;
  clickTracking: boolean;
  dkim: { selector: string; publicKey: string };
  records: DnsRecord[];
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  verifiedAt: string | null;
  failureReason: string | null;
}

const REQUIRED: Array<DnsRecord['record']> = ['DKIM', 'MX', 'SPF'];

const summary = (row: DomainRow): DomainSummary => ({
  id: row.id,
  name: row.name,
  status: row.status as DomainStatus,
  isPolling: row.chainStartedAt !== null,
  createdAt: row.createdAt.toISOString(),
});

function recordsOf(deps: Pick<Deps, 'config'>, row: DomainRow, key: Pick<DkimKeyRow, 'selector' | 'publicKey'>): DnsRecord[] {
  return buildDomainRecords(
    { name: row.name, selector: key.selector, publicKey: key.publicKey, returnPath: row.returnPath, mailHost: deps.config.mailHost },
    row.recordStatuses as Partial<RecordStatuses>,
  );
}

function view(deps: Pick<Deps, 'config'>, row: DomainRow, key: DkimKeyRow): DomainView {
  return {
    ...summary(row),
    region: 'eu',
    returnPath: row.returnPath,
    openTracking: row.openTracking,
    clickTracking: row.clickTracking,
    dkim: { selector: key.selector, publicKey: key.publicKey },
    records: recordsOf(deps, row, key),
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    nextCheckAt: row.nextCheckAt?.toISOString() ?? null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    failureReason: row.failureReason,
  };
}

async function activeKey(db: Db, domainId: string): Promise<DkimKeyRow> {
  const [key] = await db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), isNull(dkimKeys.retiredAt)))
    .orderBy(desc(dkimKeys.id))
    .limit(1);
  if (!key) throw new Error(`domain ${domainId} has no active DKIM key`);
  return key;
}

async function ownDomain(db: Db, principal: Principal, id: string): Promise<DomainRow> {
  const [row] = await db.select().from(domains).where(and(eq(domains.id, id), eq(domains.organizationId, principal.organizationId)));
  if (!row) throw notFound('Domain');
  return row;
}

export interface RegisterDomainInput {
  name: string;
  returnPath?: string;
  openTracking?: boolean;
  clickTracking?: boolean;
}

/** Registers a domain with a fresh DKIM key and starts polling DNS for its records at once. */
export async function registerDomain(deps: Deps, principal: Principal, input: RegisterDomainInput): Promise<DomainView> {
  const sandbox = deps.config.sandboxDomain;
  const asGiven = input.name.trim().toLowerCase().replace(/\.$/, '');
  if (sandbox && (asGiven === sandbox || asGiven.endsWith(`.${sandbox}`))) {
    throw conflict(`${asGiven} is the shared sandbox domain; register a domain of your own`);
  }
  const name = normalizeDomainName(input.name);
  const returnPath = normalizeReturnPath(input.returnPath ?? 'send');
  const pair = await generateDkimKeyPair();
  const now = deps.clock.now();
  const created = await deps.db.transaction(async (tx) => {
    // The organization's row lock serialises registrations, so the plan's domain cap holds.
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, principal.organizationId)).for('update');
    if (!organization) throw notFound('Organization');
    const plan = planOf(organization.plan);
    const [{ value: existing } = { value: 0 }] = await tx.select({ value: count() }).from(domains).where(eq(domains.organizationId, principal.organizationId));
    if (plan.domains !== null && existing >= plan.domains) {
      throw new AppError('PLAN_LIMIT_EXCEEDED', `The ${plan.label} plan allows ${plan.domains} domain${plan.domains === 1 ? '' : 's'}; delete one or upgrade`);
    }
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
        selector: pair.selector,
        publicKey: pair.publicKey,
        privateKeyEncrypted: seal(pair.privateKeyPem, deps.encryptionKey),
        createdAt: now,
      })
      .returning();
    await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'domain.created', data: { domainId: row!.id, name, status: 'pending' } });
    return view(deps, row!, key!);
  });
  deps.jobs.wake('domain-check', created.id);
  return created;
}

export async function listDomains(deps: Pick<Deps, 'db'>, principal: Principal): Promise<DomainSummary[]> {
  const rows = await deps.db.select().from(domains).where(eq(domains.organizationId, principal.organizationId)).orderBy(desc(domains.id));
  return rows.map(summary);
}

export async function getDomain(deps: Pick<Deps, 'db' | 'config'>, principal: Principal, id: string): Promise<DomainView> {
  const row = await ownDomain(deps.db, principal, id);
  return view(deps, row, await activeKey(deps.db, row.id));
}

/** Whether the customer's DNS provider can apply this domain's records with Domain Connect, evaluated now. */
export async function domainConnectFor(deps: Pick<Deps, 'db' | 'config'>, principal: Principal, id: string): Promise<DomainConnectAnswer> {
  const domain = await getDomain(deps, principal, id);
  return checkDomainConnect(deps, { name: domain.name, records: domain.records });
}

/** Deletes the domain, retires its DKIM key (the private key is wiped) and revokes the keys pinned to it, all at once. */
export async function deleteDomain(deps: Deps, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await ownDomain(tx, principal, id);
    const now = deps.clock.now();
    await tx.update(dkimKeys).set({ retiredAt: now, privateKeyEncrypted: null }).where(eq(dkimKeys.domainId, row.id));
    await revokeKeysPinnedTo(tx, deps, principal.organizationId, row.id);
    await tx.delete(domains).where(eq(domains.id, row.id));
    await recordEvent(tx, deps, { organizationId: principal.organizationId, type: 'domain.deleted', data: { domainId: row.id, name: row.name } });
  });
}

/** "Verify now": a check chain starts at once instead of at the next scheduled poll. */
export async function requestVerification(deps: Deps, principal: Principal, id: string): Promise<void> {
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

/** The signing key of a domain, for delivery: null once the domain is gone or its key retired. */
export async function signingKeyOf(deps: Pick<Deps, 'db' | 'encryptionKey'>, domainId: string): Promise<{ selector: string; privateKeyPem: string } | null> {
  const [key] = await deps.db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), isNull(dkimKeys.retiredAt), isNotNull(dkimKeys.privateKeyEncrypted)))
    .orderBy(desc(dkimKeys.id))
    .limit(1);
  return key ? { selector: key.selector, privateKeyPem: open(key.privateKeyEncrypted!, deps.encryptionKey) } : null;
}

type Outcome = Pick<DomainRow, 'status' | 'chainStartedAt' | 'nextCheckAt' | 'verifiedAt' | 'failureReason'> & { recordStatuses: RecordStatuses };

const listed = (records: string[]) => (records.length === 1 ? `the ${records[0]} record` : `the ${records.join(', ')} records`);

/** Why a domain is not verified, telling apart records not published yet from ones published with another value. */
function describeUnverified(statuses: RecordStatuses): string {
  const wrong = REQUIRED.filter((record) => statuses[record] === 'failed');
  const absent = REQUIRED.filter((record) => statuses[record] === 'pending');
  const parts = [];
  if (wrong.length > 0) parts.push(`${listed(wrong)} ${wrong.length === 1 ? 'is' : 'are'} published with another value than the one we asked for`);
  if (absent.length > 0) parts.push(`${listed(absent)} ${absent.length === 1 ? 'is' : 'are'} not published yet`);
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a check's findings mean for the domain: the state machine of verification. */
function decide(row: DomainRow, statuses: RecordStatuses, now: Date): Outcome {
  const at = (ms: number) => new Date(now.getTime() + ms);
  const required = REQUIRED.map((record) => statuses[record]);
  if (required.every((status) => status === 'verified')) {
    return { status: 'verified', recordStatuses: statuses, chainStartedAt: null, nextCheckAt: at(RECHECK_VERIFIED_MS), verifiedAt: row.verifiedAt ?? now, failureReason: null };
  }
  if (required.includes('temporary_failure')) {
    // The DNS did not answer: nothing is concluded, the domain keeps its state and is read again soon.
    return {
      status: row.status,
      recordStatuses: statuses,
      chainStartedAt: row.chainStartedAt,
      nextCheckAt: at(TRANSIENT_RETRY_MS),
      verifiedAt: row.verifiedAt,
      failureReason: 'The DNS servers did not answer; checking again in 5 minutes',
    };
  }
  const reason = describeUnverified(statuses);
  if (row.status === 'verified') {
    return { status: 'temporary_failure', recordStatuses: statuses, chainStartedAt: now, nextCheckAt: at(chainDelayMs(0)), verifiedAt: row.verifiedAt, failureReason: reason };
  }
  const chainStartedAt = row.chainStartedAt ?? now;
  const elapsed = now.getTime() - chainStartedAt.getTime();
  if (elapsed >= CHAIN_LIMIT_MS) {
    const failed = Object.fromEntries(Object.entries(statuses).map(([record, status]) => [record, status === 'pending' ? 'failed' : status])) as RecordStatuses;
    return { status: 'failed', recordStatuses: failed, chainStartedAt: null, nextCheckAt: null, verifiedAt: null, failureReason: `Not verified after 72 hours: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` };
  }
  const status = row.status === 'temporary_failure' ? 'temporary_failure' : required.includes('verified') ? 'partially_verified' : 'pending';
  return { status, recordStatuses: statuses, chainStartedAt, nextCheckAt: at(chainDelayMs(elapsed)), verifiedAt: row.verifiedAt, failureReason: reason };
}

/**
 * Reads one due domain's records and moves it along. The row is claimed by pushing its due time
 * out by a lease, so two workers never check it at once and a crash only delays the check.
 */
export async function checkDomain(deps: Deps, id: string): Promise<DomainStatus | 'skipped'> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(domains)
    .set({ nextCheckAt: new Date(now.getTime() + CHECK_LEASE_MS), checkAttempts: sql`${domains.checkAttempts} + 1` })
    .where(and(eq(domains.id, id), lte(domains.nextCheckAt, now)))
    .returning();
  if (!row) return 'skipped';
  const key = await activeKey(deps.db, row.id);
  const statuses = await checkDomainRecords(deps.config.dnsServers, recordsOf(deps, row, key), { publicKey: key.publicKey, mailHost: deps.config.mailHost });
  let outcome = decide(row, statuses, deps.clock.now());
  if (outcome.status === 'verified' && !row.verifiedAt && (await verifiedElsewhere(deps.db, row))) {
    outcome = { ...outcome, status: 'failed', chainStartedAt: null, nextCheckAt: null, verifiedAt: null, failureReason: `${row.name} is verified on another account` };
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(domains)
      .set({ ...outcome, lastCheckedAt: deps.clock.now() })
      .where(eq(domains.id, row.id));
    if (outcome.status !== row.status) {
      await recordEvent(tx, deps, {
        organizationId: row.organizationId,
        type: 'domain.updated',
        data: { domainId: row.id, name: row.name, status: outcome.status, previousStatus: row.status },
      });
    }
  });
  return outcome.status as DomainStatus;
}

const verifiedElsewhere = async (db: Db, row: DomainRow) =>
  (await db.select({ id: domains.id }).from(domains).where(and(eq(domains.name, row.name), ne(domains.id, row.id), isNotNull(domains.verifiedAt))).limit(1)).length > 0;

export async function dueDomainIds(deps: Pick<Deps, 'db' | 'clock'>, limit = 50): Promise<string[]> {
  const rows = await deps.db
    .select({ id: domains.id })
    .from(domains)
    .where(lte(domains.nextCheckAt, deps.clock.now()))
    .orderBy(asc(domains.nextCheckAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function sweepDomainChecks(deps: Deps): Promise<number> {
  let checked = 0;
  for (const id of await dueDomainIds(deps)) if ((await checkDomain(deps, id)) !== 'skipped') checked += 1;
  return checked;
}

/** The organization's domain with this id, or null: another organization's domain is never visible. */
export async function findOwnDomain(db: Db, organizationId: string, id: string) {
  const [domain] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.organizationId, organizationId)));
  return domain ?? null;
}
