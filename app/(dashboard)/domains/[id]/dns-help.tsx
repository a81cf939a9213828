import type { Domain } from '../types';

/** How to publish the records, in a few sentences. */
export function DnsHelp({ domain }: { domain: Domain }) {
  const splitsDkim = domain.records.some((record) => (record.parts?.length ?? 0) > 1);
  return (
    <div className="mt-1 max-w-3xl space-y-1.5 text-sm text-slate-500" data-testid="dns-help">
      <p>
        Add these records at your DNS provider. Hosts are relative to <strong className="font-medium break-all text-slate-700">{domain.name}</strong>, and
        most providers add the domain for you; if yours wants full names, or your DNS zone is a parent domain, use the full name shown under each host.
        DKIM, MX and SPF are required for verification; DMARC is recommended.
      </p>
      {splitsDkim && (
        <p>
          The DKIM value is longer than 255 characters. Most providers split it for you; if yours refuses it, use <em>Show full value</em> to get the
          strings to enter one by one.
        </p>
      )}
    </div>
  );
}
