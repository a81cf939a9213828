import type { DnsServer } from './dns';

interface PublishedRecord {
  record: string;
  type: string;
  name: string;
  value: string;
  parts?: string[];
  priority?: number;
}

/** Publishes a domain's records (all, or the ones named) on the test DNS server, as a customer would. */
export function publishRecords(dns: DnsServer, records: PublishedRecord[], only?: string[]): void {
  for (const record of records) {
    if (only && !only.includes(record.record)) continue;
    if (record.type === 'MX') dns.mx(record.name, record.value, record.priority ?? 10);
    else dns.txt(record.name, ...(record.parts ?? [record.value]));
  }
}
