'use client';

import Link from 'next/link';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { formatCount } from '../../lib/format';
import { SectionCard } from '../billing/section-card';
import { UsageMeter } from '../billing/usage-meter';
import { useUsage } from '../billing/use-usage';

function Meter({ label, used, limit, unit, testId }: { label: string; used: number; limit: number; unit: string; testId: string }) {
  return (
    <div>
      <div className="mb-1.5 flex items-baseline justify-between gap-3 text-sm">
        <span className="text-slate-600">{label}</span>
        <span className="text-slate-900 tabular-nums" data-testid={testId}>
          {formatCount(used)} <span className="text-slate-500">of {formatCount(limit)}</span>
        </span>
      </div>
      <UsageMeter label={label} used={used} limit={limit} unit={unit} />
    </div>
  );
}

/** The plan, this month and today against its limits (GET /usage, as the billing page shows it). */
export function UsageCard({ className }: { className?: string }) {
  const usage = useUsage();
  return (
    <SectionCard
      id="overview-usage"
      title="Usage"
      description={usage.data ? `${usage.data.plan.label} plan · live email only` : 'Live email only'}
      testId="overview-usage"
      className={className}
      action={
        <Link href="/billing" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
          Billing
        </Link>
      }
    >
      {usage.isPending && (
        <div className="space-y-5" aria-busy="true">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      )}
      {usage.isError && (
        <ErrorAlert
          error={usage.error}
          fallbackTitle="Could not load your usage"
          action={
            <Button variant="secondary" size="sm" onClick={() => void usage.refetch()} loading={usage.isFetching}>
              Try again
            </Button>
          }
        />
      )}
      {usage.data && (
        <div className="space-y-5">
          <Meter label="Emails this month" used={usage.data.month.emails} limit={usage.data.month.quota} unit="emails" testId="usage-month" />
          <Meter label="Recipients today (UTC)" used={usage.data.today.recipients} limit={usage.data.today.ceiling} unit="recipients" testId="usage-today" />
          <p className="text-xs text-slate-500">
            {formatCount(usage.data.month.remaining)} left this month. An email to three recipients counts three; test-mode email is not counted.
          </p>
        </div>
      )}
    </SectionCard>
  );
}
