import { DomainStatusBadge } from '../status-badges';
import type { Domain } from '../types';
import { CheckTimes } from './check-times';
import { VerifyButton } from './verify-button';

/** Name, status and the manual check. */
export function DomainHeader({ domain, onVerifyStarted }: { domain: Domain; onVerifyStarted: () => void }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="text-2xl font-semibold tracking-tight break-all text-slate-900">{domain.name}</h1>
          <DomainStatusBadge status={domain.status} />
        </div>
        <CheckTimes domain={domain} />
      </div>
      <VerifyButton domainId={domain.id} onStarted={onVerifyStarted} />
    </div>
  );
}
