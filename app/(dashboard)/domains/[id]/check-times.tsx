import { RelativeTime } from '../../../components/relative-time';
import { recordList } from '../check-summary';
import type { Domain } from '../types';

/** When the DNS was last read and what that read missed, and when it is read next (or that the checks stopped). */
export function CheckTimes({ domain }: { domain: Domain }) {
  const stopped = domain.nextCheckAt === null && domain.status === 'failed';
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-500" data-testid="check-times">
      <span>
        Last checked:{' '}
        {domain.lastCheckedAt ? <RelativeTime iso={domain.lastCheckedAt} className="text-slate-700" /> : <span className="text-slate-700">not yet</span>}
        {domain.missingRecords.length > 0 && (
          <span data-testid="missing-records">
            {' '}
            ({recordList(domain.missingRecords)} missing)
          </span>
        )}
      </span>
      <span>
        Next check:{' '}
        {domain.nextCheckAt ? (
          <RelativeTime iso={domain.nextCheckAt} future className="text-slate-700" />
        ) : (
          <span className="text-slate-700">{stopped ? 'none, the checks stopped (Verify now starts them again)' : 'not scheduled'}</span>
        )}
      </span>
    </p>
  );
}
