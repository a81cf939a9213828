// The vocabulary of sending domains, declared once (see emails/statuses.ts). Imports nothing.

/** Where a domain's verification stands (DESIGN.md §3). */
export const DOMAIN_STATUSES = ['not_started', 'pending', 'verified', 'partially_verified', 'failed', 'temporary_failure'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** Where one DNS record's check stands. */
export const DNS_RECORD_STATUSES = ['pending', 'verified', 'failed', 'temporary_failure'] as const;
export type DnsRecordStatus = (typeof DNS_RECORD_STATUSES)[number];

/** The records a domain publishes; DMARC is advised, the others are required. */
export const DNS_RECORD_KINDS = ['DKIM', 'MX', 'SPF', 'DMARC'] as const;
export type DnsRecordKind = (typeof DNS_RECORD_KINDS)[number];

/** The records verification needs found; DMARC is only advised. */
export const REQUIRED_DNS_RECORDS: readonly DnsRecordKind[] = ['DKIM', 'MX', 'SPF'];
