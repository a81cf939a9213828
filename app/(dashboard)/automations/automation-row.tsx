'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { ChevronRightIcon } from 'lucide-react';
import { RelativeTime } from '../../components/relative-time';
import { Skeleton } from '../../components/skeleton';
import { formatCount } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import { triggerLabel } from './step-kinds';
import { AutomationStatusBadge } from './status-badge';
import type { AutomationSummary } from './types';

/** Its runs in the mode shown: running now, and all started. */
function RunFigures({ id }: { id: string }) {
  const trpc = useTRPC();
  const figures = useQuery(trpc.automationRuns.figures.queryOptions({ id }));
  if (figures.isPending) return <Skeleton className="ml-auto h-4 w-16" />;
  if (!figures.data) return <span className="text-slate-400">–</span>;
  const { running, completed, failed, cancelled } = figures.data.runs;
  return (
    <span data-testid="automation-runs" className="tabular-nums">
      <span className="text-slate-900">{formatCount(running)}</span> running
      <span className="block text-xs text-slate-500">{formatCount(running + completed + failed + cancelled)} in all</span>
    </span>
  );
}

export function AutomationRow({ automation }: { automation: AutomationSummary }) {
  const href = `/automations/${automation.id}`;
  return (
    <tr data-testid="automation-row" data-automation-id={automation.id} className="align-top hover:bg-slate-50/60">
      <td className="max-w-72 min-w-48 py-3 pr-4 pl-5 font-medium text-slate-900">
        <Link href={href} className="line-clamp-2 wrap-anywhere hover:text-indigo-600 hover:underline">
          {automation.name}
        </Link>
      </td>
      <td className="px-4 py-3">
        <AutomationStatusBadge status={automation.status} />
      </td>
      <td className="max-w-72 px-4 py-3 text-slate-600">
        <span className="line-clamp-2 wrap-anywhere" data-testid="automation-trigger">
          {triggerLabel(automation.triggerEventName)}
        </span>
      </td>
      <td className="px-4 py-3 text-right whitespace-nowrap text-slate-600">
        <RunFigures id={automation.id} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={automation.updatedAt} />
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${automation.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
