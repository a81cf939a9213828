import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { formatCount } from '../../lib/format';
import { BroadcastTime } from './broadcast-time';
import { ProgressBar } from './progress-bar';
import { BroadcastStatusBadge } from './status-badge';
import type { BroadcastSummary } from './types';

/** A number of the row; a dash before sending started, where zero would say something untrue. */
function Count({ value, started, testId, machine }: { value: number; started: boolean; testId: string; machine?: number }) {
  return (
    <td className="px-4 py-3 text-right text-slate-700 tabular-nums" data-testid={testId}>
      {started ? formatCount(value) : <span className="text-slate-300">—</span>}
      {started && machine !== undefined && machine > 0 && (
        <span className="block text-xs whitespace-nowrap text-slate-500" data-testid={`${testId}-machine`}>
          {formatCount(machine)} by machines
        </span>
      )}
    </td>
  );
}

export function BroadcastRow({ broadcast, audienceName }: { broadcast: BroadcastSummary; audienceName: string | undefined }) {
  const href = `/broadcasts/${broadcast.id}`;
  const { counts } = broadcast;
  const started = broadcast.startedAt !== null;
  return (
    <tr data-testid="broadcast-row" data-broadcast-id={broadcast.id} className="align-top hover:bg-slate-50/60">
      <td className="max-w-80 min-w-52 py-3 pr-4 pl-5">
        <Link href={href} className="line-clamp-2 font-medium wrap-anywhere text-slate-900 hover:text-indigo-600 hover:underline">
          {broadcast.name}
        </Link>
        {broadcast.subject && broadcast.subject !== broadcast.name && <p className="mt-0.5 line-clamp-1 text-xs wrap-anywhere text-slate-500">{broadcast.subject}</p>}
      </td>
      <td className="px-4 py-3">
        <BroadcastStatusBadge status={broadcast.status} />
        {broadcast.status === 'sending' && (
          <div className="mt-2 w-32" title={`${formatCount(counts.queued)} of ${formatCount(counts.recipients)} queued`}>
            <ProgressBar label={`${broadcast.name}: queued`} value={counts.queued} total={counts.recipients} size="sm" testId="broadcast-row-progress" />
            <p className="mt-1 text-xs text-slate-500 tabular-nums">
              {formatCount(counts.queued)} / {formatCount(counts.recipients)}
            </p>
          </div>
        )}
      </td>
      <td className="max-w-48 px-4 py-3 text-slate-600" data-testid="broadcast-audience">
        {broadcast.audienceId === null ? <span className="text-slate-400 italic">Deleted</span> : <span className="line-clamp-2 wrap-anywhere">{audienceName ?? '…'}</span>}
      </td>
      <Count value={counts.sent} started={started} testId="broadcast-sent" />
      <Count value={counts.delivered} started={started} testId="broadcast-delivered" />
      <Count value={counts.opened} machine={counts.openedMachine} started={started} testId="broadcast-opened" />
      <td className="px-4 py-3 text-slate-500">
        <BroadcastTime broadcast={broadcast} />
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${broadcast.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
