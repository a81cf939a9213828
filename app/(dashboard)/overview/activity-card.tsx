'use client';

import { ChartColumnIcon } from 'lucide-react';
import { Button } from '../../components/button';
import { cx } from '../../components/cx';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { StatBox } from '../../components/stat-box';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { formatCount, formatDay } from '../../lib/format';
import { SectionCard } from '../billing/section-card';
import { ActivityChart } from './activity-chart';
import { hasActivity, MACHINE_OPENS, SERIES, totals } from './activity-series';
import type { Activity, ActivityDay } from './types';
import type { ActivityQuery } from './use-overview';

function Legend() {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
      {[...SERIES, MACHINE_OPENS].map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          <span className={cx('inline-block size-2.5 rounded-sm', item.swatch)} aria-hidden="true" />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** The week as numbers: for reading exactly, and for screen readers. */
function DaysTable({ days }: { days: ActivityDay[] }) {
  const columns = ['Day (UTC)', 'Sent', 'Delivered', 'Bounced', 'Complained', 'Opened', 'By a machine'];
  return (
    <details className="mt-4 text-sm">
      <summary className="cursor-pointer font-medium text-indigo-700 hover:text-indigo-600">Show the numbers by day</summary>
      <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="The last 7 days by day">
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              {columns.map((column, index) => (
                <th key={column} scope="col" className={cx('px-4 py-2', index === 0 ? 'text-left' : 'text-right')}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row" className="px-4 py-1.5 text-left font-normal text-slate-700">
                  {formatDay(day.day)}
                </th>
                {[day.sent, day.delivered, day.bounced, day.complained, day.opened, day.machineOpened].map((value, index) => (
                  <td key={index} className="px-4 py-1.5 text-right text-slate-900">
                    {formatCount(value)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function ActivityBody({ activity }: { activity: Activity }) {
  if (!hasActivity(activity.days)) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center" data-testid="activity-empty">
        <div className="flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
          <ChartColumnIcon className="size-5" />
        </div>
        <p className="mt-3 text-sm font-semibold text-slate-900">No email sent in the last 7 days</p>
        <p className="mt-1 max-w-md text-sm text-slate-500">
          {activity.mode === 'live'
            ? 'Each day you send, the chart shows what was sent, delivered, bounced, complained about and opened. Email sent with a test key shows in Test mode.'
            : 'Email sent with a test key shows here by day, its simulated deliveries, bounces, complaints and opens included. Live email shows in Live.'}
        </p>
      </div>
    );
  }
  const sum = totals(activity.days);
  return (
    <>
      <dl className="mb-5 grid grid-cols-2 gap-3 sm:grid-cols-5">
        <StatBox label="Sent" value={sum.sent} testId="total-sent" />
        <StatBox label="Delivered" value={sum.delivered} testId="total-delivered" tone="good" />
        <StatBox label="Bounced" value={sum.bounced} testId="total-bounced" tone="bad" />
        <StatBox label="Complained" value={sum.complained} testId="total-complained" tone="bad" />
        <StatBox label="Opened" value={sum.opened} testId="total-opened" />
      </dl>
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="text-sm font-medium text-slate-700">Emails by day</h3>
        <Legend />
      </div>
      <ActivityChart days={activity.days} />
      {sum.machineOpened > 0 && (
        <p className="mt-2 text-xs text-slate-500" data-testid="machine-opens-note">
          {formatCount(sum.machineOpened)} {sum.machineOpened === 1 ? 'email was' : 'emails were'} opened by a machine (a privacy proxy or a security scanner): shown
          apart, not counted as opened.
        </p>
      )}
      <DaysTable days={activity.days} />
    </>
  );
}

/** The last seven UTC days of the dashboard's mode: the totals, then a chart by day. */
export function ActivityCard({ query, className }: { query: ActivityQuery; className?: string }) {
  const mode = useDashboardMode();
  return (
    <SectionCard
      id="activity"
      title="Last 7 days"
      description={`${mode === 'test' ? 'Test-mode' : 'Live'} email by UTC day: each email counted once a day for each thing that happened to it.`}
      testId="activity"
      className={className}
    >
      {query.isPending && (
        <div aria-busy="true" data-testid="activity-loading">
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-16" />
            ))}
          </div>
          <Skeleton className="mt-5 h-56" />
        </div>
      )}
      {query.isError && (
        <ErrorAlert
          error={query.error}
          fallbackTitle="Could not load the last 7 days"
          action={
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
              Try again
            </Button>
          }
        />
      )}
      {query.data && <ActivityBody activity={query.data} />}
    </SectionCard>
  );
}
