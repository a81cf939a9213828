import type { Domain } from '../types';
import { DnsHelp } from './dns-help';
import { DnsRecordRow } from './dns-record-row';
import { DnsRecordsTable } from './dns-records-table';
import { DomainConnectPanel } from './domain-connect-panel';

export function DnsRecordsSection({ domain }: { domain: Domain }) {
  return (
    <section aria-labelledby="dns-records-heading" className="space-y-3">
      <div>
        <h2 id="dns-records-heading" className="text-base font-semibold text-slate-900">
          DNS records
        </h2>
        <DnsHelp domain={domain} />
      </div>
      {domain.status !== 'verified' && <DomainConnectPanel domainId={domain.id} />}
      <DnsRecordsTable>
        {domain.records.map((record) => (
          <DnsRecordRow key={`${record.record}-${record.name}`} record={record} />
        ))}
      </DnsRecordsTable>
    </section>
  );
}
