import type { dkimKeys, domains } from '@/db/schema';
import type { Deps } from '../../deps';
import { buildDomainRecords, type DnsRecord } from './records';
import { REQUIRED_DNS_RECORDS, type DnsRecordKind, type DomainStatus } from '../../vocabulary/domain-statuses';

export type { DomainStatus };

export type DomainRow = typeof domains.$inferSelect;
export type DkimKeyRow = typeof dkimKeys.$inferSelect;

export interface DomainSummary {
  id: string;
  name: string;
  status: DomainStatus;
  /** The shared onboarding domain every organization has (docs/domains.md), not one it registered. */
  sandbox: boolean;
  isPolling: boolean;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  /** The required records the last check did not find with the value asked for: none before the first check. */
  missingRecords: DnsRecordKind[];
  createdAt: string;
}

export interface DomainView extends DomainSummary {
  region: 'eu';
  returnPath: string;
  openTracking: boolean;
  clickTracking: boolean;
  dkim: { selector: string; publicKey: string };
  records: DnsRecord[];
  verifiedAt: string | null;
  failureReason: string | null;
}

/**
 * Absent (pending) or published with another value (failed) when last read; a record whose DNS did
 * not answer is neither, since nothing was concluded about it.
 */
function missingAtLastCheck(row: DomainRow): DnsRecordKind[] {
  if (row.lastCheckedAt === null) return [];
  return REQUIRED_DNS_RECORDS.filter((record) => row.recordStatuses[record] === 'pending' || row.recordStatuses[record] === 'failed');
}

export const summary = (row: DomainRow): DomainSummary => ({
  id: row.id,
  name: row.name,
  status: row.status,
  sandbox: false,
  isPolling: row.chainStartedAt !== null,
  lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
  nextCheckAt: row.nextCheckAt?.toISOString() ?? null,
  missingRecords: missingAtLastCheck(row),
  createdAt: row.createdAt.toISOString(),
});

export function recordsOf(deps: Pick<Deps, 'config'>, row: DomainRow, key: Pick<DkimKeyRow, 'selector' | 'publicKey'>): DnsRecord[] {
  return buildDomainRecords(
    { name: row.name, selector: key.selector, publicKey: key.publicKey, returnPath: row.returnPath, mailHost: deps.config.mailHost },
    row.recordStatuses,
  );
}

export function view(deps: Pick<Deps, 'config'>, row: DomainRow, key: DkimKeyRow): DomainView {
  return {
    ...summary(row),
    region: 'eu',
    returnPath: row.returnPath,
    openTracking: row.openTracking,
    clickTracking: row.clickTracking,
    dkim: { selector: key.selector, publicKey: key.publicKey },
    records: recordsOf(deps, row, key),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    failureReason: row.failureReason,
  };
}

