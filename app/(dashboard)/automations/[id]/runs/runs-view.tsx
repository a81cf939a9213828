'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ChevronRightIcon } from 'lucide-react';
import { DataTable } from '../../../../components/data-table';
import { SelectField } from '../../../../components/field';
import { ErrorAlert } from '../../../../components/error-alert';
import { PageHeader } from '../../../../components/page-header';
import { isRefreshing, PagedListFooter, RefreshButton } from '../../../../components/paged-list';
import { RelativeTime } from '../../../../components/relative-time';
import { RetryButton } from '../../../../components/retry-button';
import { SkeletonRows } from '../../../../components/skeleton-rows';
import { useDashboardMode } from '../../../../lib/dashboard-mode';
import { countOf } from '../../../../lib/format';
import { BackToAutomations } from '../../back-to-automations';
import { RUN_STATUS_LABELS, RunStatusBadge } from '../../status-badge';
import type { RunStatus } from '../../types';
import { AutomationNotFound } from '../automation-not-found';
import { useAutomation } from '../use-automation';
import { FiguresPanel } from './figures-panel';
import { useRuns } from './use-runs';

const columns = ['Contact', 'Status', 'At step', 'Started', { srOnly: 'Open' }];
const skeleton = (count = 3) => <SkeletonRows testId="run-skeleton" count={count} cells={['h-4 w-48', 'h-5 w-20 rounded-md', 'h-4 w-24', 'h-4 w-24', 'ml-auto size-5']} />;

/** An automation's figures and its runs (the mode shown: Test mode shows test runs), with a run's detail a click away. */
export function RunsView({ id }: { id: string }) {
  const automation = useAutomation(id);
  const mode = useDashboardMode();
  const [status, setStatus] = useState<RunStatus | ''>('');
  const { query, runs } = useRuns(id, status);
  if (automation.notFound) return <AutomationNotFound />;
  const name = automation.query.data?.name ?? 'Automation';

  return (
    <div className="space-y-6">
      <BackToAutomations href={`/automations/${id}`} label={name} />
      <PageHeader
        title={`Runs of ${name}`}
        description={mode === 'test' ? 'Test runs: started by a test key’s event or a test run, their emails simulated.' : 'Live runs: one contact’s way through the automation each. Test runs are shown in Test mode.'}
        actions={<RefreshButton query={query} />}
      />
      <FiguresPanel id={id} />

      <div className="flex items-end justify-between gap-4">
        <h2 className="text-base font-semibold text-slate-900">Runs</h2>
        <SelectField label="Status" className="w-48" value={status} onChange={(event) => setStatus(event.target.value as RunStatus | '')} data-testid="runs-status-filter">
          <option value="">Any status</option>
          {(Object.keys(RUN_STATUS_LABELS) as RunStatus[]).map((value) => (
            <option key={value} value={value}>
              {RUN_STATUS_LABELS[value]}
            </option>
          ))}
        </SelectField>
      </div>

      {query.isPending && (
        <DataTable label="Runs" columns={columns} busy>
          {skeleton()}
        </DataTable>
      )}
      {query.isError && !runs && <ErrorAlert error={query.error} fallbackTitle="Could not load its runs" action={<RetryButton query={query} />} />}
      {runs?.length === 0 && (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500" data-testid="runs-empty">
          {status ? `No ${RUN_STATUS_LABELS[status].toLowerCase()} run.` : 'No run yet. A run starts when the trigger fires for a contact, or with a test run.'}
        </p>
      )}
      {runs && runs.length > 0 && (
        <>
          <DataTable label="Runs" columns={columns} busy={isRefreshing(query)}>
            {runs.map((run) => {
              const href = `/automations/${id}/runs/${run.id}`;
              return (
                <tr key={run.id} data-testid="run-row" data-run-id={run.id} className="align-top hover:bg-slate-50/60">
                  <td className="py-3 pr-4 pl-5 font-medium text-slate-900">
                    <Link href={href} className="wrap-anywhere hover:text-indigo-600 hover:underline">
                      {run.contactEmail}
                    </Link>
                    {run.error && <span className="mt-1 block max-w-96 text-xs font-normal text-red-700">{run.error}</span>}
                  </td>
                  <td className="px-4 py-3">
                    <RunStatusBadge status={run.status} />
                  </td>
                  <td className="px-4 py-3">
                    <code className="font-mono text-xs text-slate-700">{run.stepKey}</code>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-500">
                    <RelativeTime iso={run.startedAt ?? run.createdAt} />
                  </td>
                  <td className="py-3 pr-5 pl-4 text-right">
                    <Link href={href} aria-label={`Open the run of ${run.contactEmail}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
                      <ChevronRightIcon className="size-5" />
                    </Link>
                  </td>
                </tr>
              );
            })}
            {query.isFetchingNextPage && skeleton(2)}
          </DataTable>
          <PagedListFooter count={countOf(runs.length, 'run')} testId="runs-footer" countTestId="runs-count" query={query} failure={{ more: 'Could not load more runs', refresh: 'Could not refresh the runs' }} />
        </>
      )}
    </div>
  );
}
