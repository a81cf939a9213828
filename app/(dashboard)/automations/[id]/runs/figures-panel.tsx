'use client';

import { useQuery } from '@tanstack/react-query';
import { Bar, barPercent } from '../../../../components/bar';
import { ErrorAlert } from '../../../../components/error-alert';
import { RetryButton } from '../../../../components/retry-button';
import { Skeleton } from '../../../../components/skeleton';
import { StatBox } from '../../../../components/stat-box';
import { formatCount } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';

/** The automation at a glance (GET /automations/{id}/figures): its runs by status, where the running ones wait, what its emails became. */
export function FiguresPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.automationRuns.figures.queryOptions({ id }), refetchInterval: 5_000 });
  if (query.isPending) return <Skeleton className="h-40 w-full rounded-xl" />;
  if (query.isError) return <ErrorAlert error={query.error} fallbackTitle="Could not load its figures" action={<RetryButton query={query} />} />;
  const { runs, atStep, emails } = query.data;
  const most = Math.max(0, ...atStep.map((at) => at.runs));
  return (
    <div className="space-y-6" data-testid="automation-figures">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <StatBox label="Running" value={runs.running} testId="figure-running" />
        <StatBox label="Completed" value={runs.completed} testId="figure-completed" tone="good" />
        <StatBox label="Failed" value={runs.failed} testId="figure-failed" tone="bad" />
        <StatBox label="Cancelled" value={runs.cancelled} testId="figure-cancelled" />
      </dl>
      <div className="grid gap-6 lg:grid-cols-2">
        <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h3 className="text-sm font-semibold text-slate-900">Waiting at each step</h3>
          {atStep.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No run is under way.</p>
          ) : (
            <ul className="mt-3 space-y-2" data-testid="waiting-per-step">
              {atStep.map((at) => (
                <li key={at.stepKey} className="grid grid-cols-[minmax(0,10rem)_1fr_auto] items-center gap-3 text-sm" data-step-key={at.stepKey}>
                  <code className="truncate font-mono text-xs text-slate-700">{at.stepKey}</code>
                  <Bar role="meter" label={`Waiting at ${at.stepKey}`} max={most} now={at.runs} valueText={`${formatCount(at.runs)} contacts`} parts={[{ percent: barPercent(at.runs, most), fill: 'bg-sky-500' }]} />
                  <span className="text-right tabular-nums text-slate-700">{formatCount(at.runs)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h3 className="text-sm font-semibold text-slate-900">Emails</h3>
          <dl className="mt-3 grid grid-cols-3 gap-3">
            <StatBox label="Sent" value={emails.sent} testId="figure-emails-sent" />
            <StatBox label="Opened" value={emails.opened} testId="figure-emails-opened" tone="good" />
            <StatBox label="Clicked" value={emails.clicked} testId="figure-emails-clicked" tone="good" />
          </dl>
          {Object.keys(emails.byStatus).length > 0 && (
            <p className="mt-3 text-xs text-slate-500" data-testid="emails-by-status">
              {Object.entries(emails.byStatus)
                .map(([status, count]) => `${formatCount(count)} ${status}`)
                .join(' · ')}
            </p>
          )}
        </section>
      </div>
    </div>
  );
}
