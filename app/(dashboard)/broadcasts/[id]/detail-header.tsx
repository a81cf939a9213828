import type { ReactNode } from 'react';
import { Spinner } from '../../../components/spinner';
import { BroadcastStatusBadge } from '../status-badge';
import { isLive } from '../statuses';
import type { Broadcast } from '../types';

/** The name, its status, and while it moves by itself a sign that the page follows it. */
export function DetailHeader({ broadcast, actions }: { broadcast: Broadcast; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-slate-900">{broadcast.name}</h1>
          <BroadcastStatusBadge status={broadcast.status} />
          {isLive(broadcast.status) && (
            <span data-testid="live-indicator" className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-slate-500">
              <Spinner className="size-3.5 text-indigo-500" />
              Updating
            </span>
          )}
        </div>
        {broadcast.subject && <p className="mt-1 text-sm wrap-anywhere text-slate-500">{broadcast.subject}</p>}
      </div>
      {actions && <div className="flex shrink-0 gap-2">{actions}</div>}
    </div>
  );
}
