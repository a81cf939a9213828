'use client';

import { useQuery } from '@tanstack/react-query';
import { ActivityIcon } from 'lucide-react';
import { Badge, type BadgeTone } from '../../../../../components/badge';
import { ErrorAlert } from '../../../../../components/error-alert';
import { NotFoundState } from '../../../../../components/not-found-state';
import { PageHeader } from '../../../../../components/page-header';
import { RetryButton } from '../../../../../components/retry-button';
import { Skeleton } from '../../../../../components/skeleton';
import { describeError } from '../../../../../lib/errors';
import { formatPreciseDateTime } from '../../../../../lib/format';
import { useTRPC } from '../../../../../lib/trpc';
import { BackToAutomations } from '../../../back-to-automations';
import { STEP_KINDS } from '../../../step-kinds';
import { RunStatusBadge } from '../../../status-badge';
import type { Run } from '../../../types';

const STEP_TONES: Record<Run['steps'][number]['status'], BadgeTone> = { completed: 'green', failed: 'red', skipped: 'amber', waiting: 'blue' };

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One run: where it stands, and each step it took with its output or error, in order. */
export function RunDetail({ id, runId }: { id: string; runId: string }) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.automationRuns.get.queryOptions({ id, runId }), refetchInterval: (state) => (state.state.data?.status === 'running' ? 5_000 : false) });
  const back = <BackToAutomations href={`/automations/${id}/runs`} label="Runs" />;
  if (query.isPending) return <Skeleton className="h-64 w-full rounded-xl" />;
  if (query.isError) {
    const { code } = describeError(query.error);
    if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') {
      return (
        <NotFoundState testId="run-not-found" icon={<ActivityIcon className="size-6" />} title="Run not found" backHref={`/automations/${id}/runs`} backLabel="Back to the runs">
          This run does not exist in the mode shown: test runs are shown in Test mode, live ones in Live.
        </NotFoundState>
      );
    }
    return (
      <div className="space-y-4">
        {back}
        <ErrorAlert error={query.error} fallbackTitle="Could not load this run" action={<RetryButton query={query} />} />
      </div>
    );
  }
  const run = query.data;
  return (
    <div className="space-y-6" data-testid="run-detail">
      {back}
      <PageHeader
        title={run.contactEmail}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <RunStatusBadge status={run.status} />
            <span>
              Version {run.version}, {run.status === 'running' ? 'at' : 'ended at'} <code className="font-mono text-xs">{run.stepKey}</code>
            </span>
            {run.endedReason && <span>({run.endedReason.replaceAll('_', ' ')})</span>}
          </span>
        }
      />
      {run.error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="run-error">
          {run.error}
        </p>
      )}
      <ol className="space-y-3">
        {run.steps.map((step, index) => (
          <li key={index} className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid="run-step" data-step-key={step.key} data-status={step.status}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-semibold text-slate-900">{STEP_KINDS[step.type].label}</span>
              <code className="font-mono text-xs text-slate-500">{step.key}</code>
              <Badge tone={STEP_TONES[step.status]}>{step.status}</Badge>
              <span className="ml-auto text-xs text-slate-500">{formatPreciseDateTime(step.startedAt)}</span>
            </div>
            {step.output && <pre className="mt-2 overflow-x-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-700">{json(step.output)}</pre>}
            {step.error && <pre className="mt-2 overflow-x-auto rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-800">{json(step.error)}</pre>}
          </li>
        ))}
        {run.steps.length === 0 && <li className="text-sm text-slate-500">No step taken yet: the run is due now.</li>}
      </ol>
    </div>
  );
}
