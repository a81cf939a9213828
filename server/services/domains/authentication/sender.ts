import type { DomainStatus } from '../../../vocabulary/domain-statuses';

/** Where a From address stands: not an address, the shared sandbox, or a domain that is, or is not, the organization's. */
export type Sender =
  | { kind: 'invalid'; from: string; reason: string }
  | { kind: 'sandbox'; domain: string }
  | { kind: 'unregistered'; domain: string }
  | { kind: 'registered'; domain: string; id: string; status: DomainStatus; failureReason: string | null };
