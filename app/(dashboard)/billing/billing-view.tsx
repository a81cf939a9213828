'use client';

import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { BillingSkeleton } from './billing-skeleton';
import { CapsSection } from './caps-section';
import { MonthCard } from './month-card';
import { OverageSection } from './overage-section';
import { PendingChangeBanner } from './pending-change-banner';
import { PlansTable } from './plans-table';
import { ReviewCard } from './review-card';
import { TodayCard } from './today-card';
import { UsageChart } from './usage-chart';
import { useUsage } from './use-usage';

export function BillingView() {
  const usage = useUsage({ fresh: true });
  // Billing is live state: in test mode the server refuses changes, so the page says why first.
  const readOnlyReason = useDashboardMode() === 'test' ? 'The dashboard is in test mode: switch to Live to change billing.' : null;

  return (
    <>
      <PageHeader
        title="Usage and billing"
        description="Your plan, what you have sent this month and today against its limits, and metered overage. Days and months are UTC."
      />

      {usage.isPending && <BillingSkeleton />}

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
        <div className="space-y-6" data-testid="billing" data-plan={usage.data.plan.id}>
          <PendingChangeBanner usage={usage.data} />
          <div className="grid gap-6 md:grid-cols-3">
            <MonthCard usage={usage.data} />
            <TodayCard usage={usage.data} />
            <ReviewCard usage={usage.data} />
          </div>
          <UsageChart usage={usage.data} />
          <div className="grid gap-6 lg:grid-cols-2">
            <OverageSection usage={usage.data} readOnlyReason={readOnlyReason} />
            <CapsSection usage={usage.data} />
          </div>
          <section aria-labelledby="plans-heading" data-testid="plans">
            <h2 id="plans-heading" className="text-base font-semibold text-slate-900">
              Plans
            </h2>
            <p className="mt-1 mb-4 text-sm text-slate-500">
              You are on <span className="font-medium text-slate-700" data-testid="current-plan">{usage.data.plan.label}</span>. Prices are per month, in euros.
            </p>
            <PlansTable usage={usage.data} disabled={readOnlyReason !== null} />
          </section>
        </div>
      )}
    </>
  );
}
