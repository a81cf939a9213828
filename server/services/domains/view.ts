import type { dkimKeys, domains } from '@/db/schema';
import type { Deps } from '../../deps';
import { buildDomainRecords, type DnsRecord } from './records';
import type { DomainStatus } from '../../vocabulary/domain-statuses';

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

export const summary = (row: DomainRow): DomainSummary => ({
  id: row.id,
  name: row.name,
  status: row.status,
  sandbox: false,
  isPolling: row.chainStartedAt !== null,
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
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    nextCheckAt: row.nextCheckAt?.toISOString() ?? null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    failureReason: row.failureReason,
  };
}

