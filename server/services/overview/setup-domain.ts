import { REQUIRED_DNS_RECORDS, type DnsRecordKind, type DnsRecordStatus, type DomainStatus } from '../../vocabulary/domain-statuses';

export interface DomainCandidate {
  id: string;
  name: string;
  status: DomainStatus;
  recordStatuses: Partial<Record<DnsRecordKind, DnsRecordStatus>>;
}

export interface SetupDomain {
  id: string;
  name: string;
  status: DomainStatus;
  /** The required records the last check found, and those it did not (yet). */
  recordsFound: DnsRecordKind[];
  recordsMissing: DnsRecordKind[];
}

const found = (domain: DomainCandidate) => REQUIRED_DNS_RECORDS.filter((record) => domain.recordStatuses[record] === 'verified');

/**
 * The domain the getting-started steps follow: a verified one if there is any, else the one with
 * the most required records found, the newest on a tie. `domains` come newest first.
 */
export function setupDomain(domains: DomainCandidate[]): SetupDomain | null {
  let best: DomainCandidate | null = null;
  let bestScore = -1;
  for (const domain of domains) {
    const score = domain.status === 'verified' ? REQUIRED_DNS_RECORDS.length + 1 : found(domain).length;
    if (score > bestScore) {
      best = domain;
      bestScore = score;
    }
  }
  if (!best) return null;
  const recordsFound = found(best);
  return {
    id: best.id,
    name: best.name,
    status: best.status,
    recordsFound,
    recordsMissing: REQUIRED_DNS_RECORDS.filter((record) => !recordsFound.includes(record)),
  };
}
