import type { ReactNode } from 'react';
import { formatDateTime } from '../../../lib/format';
import type { Domain } from '../types';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** The domain's fixed settings and history (tracking, which can change, has its own section). */
export function DomainFacts({ domain }: { domain: Domain }) {
  return (
    <section aria-labelledby="domain-details-heading" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="domain-details-heading" className="text-base font-semibold text-slate-900">
        Details
      </h2>
      <dl className="mt-4 grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="domain-facts">
        <Fact label="Region">EU</Fact>
        <Fact label="Return path">
          <code className="font-mono text-xs break-all">
            {domain.returnPath}.{domain.name}
          </code>
        </Fact>
        <Fact label="DKIM selector">
          <code className="font-mono text-xs break-all">{domain.dkim.selector}</code>
        </Fact>
        <Fact label="Added">{formatDateTime(domain.createdAt)}</Fact>
        <Fact label="Verified">{domain.verifiedAt ? formatDateTime(domain.verifiedAt) : <span className="text-slate-400">Not yet</span>}</Fact>
      </dl>
    </section>
  );
}
