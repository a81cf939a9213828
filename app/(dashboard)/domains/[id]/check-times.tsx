import { RelativeTime } from '../../../components/relative-time';
import type { Domain } from '../types';

/** When the DNS was last read, and when it will be read next. */
export function CheckTimes({ domain }: { domain: Domain }) {
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-500" data-testid="check-times">
      <span>
        Last checked:{' '}
        {domain.lastCheckedAt ? <RelativeTime iso={domain.lastCheckedAt} className="text-slate-700" /> : <span className="text-slate-700">not yet</span>}
      </span>
      <span>
        Next check:{' '}
        {domain.nextCheckAt ? <RelativeTime iso={domain.nextCheckAt} future className="text-slate-700" /> : <span className="text-slate-700">not scheduled</span>}
      </span>
    </p>
  );
}
