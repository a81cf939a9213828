import { and, asc, eq, isNotNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { domains } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { claimable, claimedBy, unclaimedBy } from '../shared/claims/lease';
import { inLanes } from '../shared/lanes';
import { recordEvent } from '../shared/events';
import { checkDomainRecords, type RecordStatuses } from './dns-check';
import { activeKey } from './repo';
import { CHAIN_LIMIT_MS, chainDelayMs, RECHECK_VERIFIED_MS, TRANSIENT_RETRY_MS } from './schedule';
import { DNS_RECORD_KINDS, REQUIRED_DNS_RECORDS, type DomainStatus } from '../../vocabulary/domain-statuses';
import { recordsOf, type DomainRow } from './view';

const REQUIRED = REQUIRED_DNS_RECORDS;

/** A domain whose next check is due at `now`: what the sweep checks, and /metrics counts as due work. */
export const domainCheckIsDue = (now: Date | SQL) => lte(domains.nextCheckAt, now);

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
    const failed: RecordStatuses = { ...statuses };
    for (const record of DNS_RECORD_KINDS) if (failed[record] === 'pending') failed[record] = 'failed';
    return { status: 'failed', recordStatuses: failed, chainStartedAt: null, nextCheckAt: null, verifiedAt: null, failureReason: `Not verified after 72 hours: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` };
  }
  const status = row.status === 'temporary_failure' ? 'temporary_failure' : required.includes('verified') ? 'partially_verified' : 'pending';
  return { status, recordStatuses: statuses, chainStartedAt, nextCheckAt: at(chainDelayMs(elapsed)), verifiedAt: row.verifiedAt, failureReason: reason };
}

/**
 * Reads one due domain's records and moves it along. The row is claimed through the one
 * claim-and-lease mechanism, so two workers never check it at once and a crashed worker's check
 * is taken over within a lease; a check that fails gives the domain back at once.
 */
export async function checkDomain(deps: Deps, id: string): Promise<DomainStatus | 'skipped'> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(domains)
    .set({ checkAttempts: sql`${domains.checkAttempts} + 1`, ...claimedBy(deps.claims.claimant) })
    .where(and(eq(domains.id, id), domainCheckIsDue(now), claimable(domains, deps.claims.claimant)))
    .returning();
  if (!row) return 'skipped';
  deps.claims.hold(domains, [row.id]);
  try {
    const status = await checkClaimed(deps, row);
    deps.claims.finished(domains, [row.id]);
    return status;
  } catch (error) {
    await deps.claims.release(domains, [row.id]);
    throw error;
  }
}

async function checkClaimed(deps: Deps, row: DomainRow): Promise<DomainStatus> {
  const key = await activeKey(deps.db, row.id);
  const statuses = await checkDomainRecords(deps.config.dnsServers, recordsOf(deps, row, key), { publicKey: key.publicKey, mailHost: deps.config.mailHost });
  let outcome = decide(row, statuses, deps.clock.now());
  if (outcome.status === 'verified' && !row.verifiedAt && (await verifiedElsewhere(deps.db, row))) {
    outcome = { ...outcome, status: 'failed', chainStartedAt: null, nextCheckAt: null, verifiedAt: null, failureReason: `${row.name} is verified on another account` };
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(domains)
      .set({ ...outcome, lastCheckedAt: deps.clock.now(), ...unclaimedBy(domains, deps.claims.id) })
      .where(eq(domains.id, row.id));
    if (outcome.status !== row.status) {
      await recordEvent(tx, deps, {
        organizationId: row.organizationId,
        type: 'domain.updated',
        data: { domainId: row.id, name: row.name, status: outcome.status, previousStatus: row.status },
      });
    }
  });
  return outcome.status;
}

const verifiedElsewhere = async (db: Db, row: DomainRow) =>
  (await db.select({ id: domains.id }).from(domains).where(and(eq(domains.name, row.name), ne(domains.id, row.id), isNotNull(domains.verifiedAt))).limit(1)).length > 0;

/** Domains checked per sweep, and at once: a check waiting on a silent DNS server holds up only its own lane. */
export const DOMAIN_SWEEP_PAGE = 50;
const CHECKS_AT_ONCE = 8;

async function dueDomainIds(deps: Pick<Deps, 'db' | 'clock'>): Promise<string[]> {
  const rows = await deps.db
    .select({ id: domains.id })
    .from(domains)
    .where(domainCheckIsDue(deps.clock.now()))
    .orderBy(asc(domains.nextCheckAt))
    .limit(DOMAIN_SWEEP_PAGE);
  return rows.map((row) => row.id);
}

/**
 * Checks a page of due domains a few at a time, so one whose lookups time out does not keep a
 * domain someone just asked to verify waiting; a stopping process leaves the rest for the next one.
 */
export async function sweepDomainChecks(deps: Deps): Promise<number> {
  let checked = 0;
  await inLanes(
    await dueDomainIds(deps),
    CHECKS_AT_ONCE,
    async (id) => {
      if ((await checkDomain(deps, id)) !== 'skipped') checked += 1;
    },
    () => deps.claims.stopping,
  );
  return checked;
}
