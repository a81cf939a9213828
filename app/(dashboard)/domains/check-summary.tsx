import { RelativeTime } from '../../components/relative-time';
import type { DomainSummary } from './types';

/** "DKIM", "MX and SPF", "DKIM, MX and SPF". */
export const recordList = (records: readonly string[]) =>
  records.length <= 1 ? records.join('') : `${records.slice(0, -1).join(', ')} and ${records[records.length - 1]}`;

/**
 * Where a domain's DNS checks stand, in one line: when the next one runs, or that they stopped,
 * and which required records the last one did not find. Nothing for a verified domain.
 */
export function CheckSummary({ domain }: { domain: DomainSummary }) {
  const polling = domain.isPolling && domain.nextCheckAt !== null;
  const stopped = !domain.isPolling && domain.status === 'failed';
  const missing = domain.missingRecords;
  if (!polling && !stopped && missing.length === 0) return null;
  return (
    <span className="text-xs text-slate-500" data-testid="check-summary">
      {polling && (
        <span className="whitespace-nowrap">
          Next check <RelativeTime iso={domain.nextCheckAt!} future className="text-slate-700" />
        </span>
      )}
      {stopped && <span className="whitespace-nowrap">Checks stopped</span>}
      {missing.length > 0 && (
        <>
          {' · '}
          <span data-testid="missing-records">{recordList(missing)} missing</span>
        </>
      )}
    </span>
  );
}
