'use client';

import { useState } from 'react';
import { PLANS, type Plan, type PlanId } from '@/server/services/plans/plan-table';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { RetryButton } from '../../components/retry-button';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { BillingSkeleton } from './billing-skeleton';
import { CapsSection } from './caps-section';
import { ChangePlanDialog } from './change-plan-dialog';
import { MonthCard } from './month-card';
import { InvoicesSection } from './invoices-section';
import { OverageSection } from './overage-section';
import { PaymentPendingBanner } from './payment-pending-banner';
import { PendingChangeBanner } from './pending-change-banner';
import { PlanRequestBanner } from './plan-request-banner';
import { PlanChangeNotice } from './plan-change-notice';
import { PlansTable, type PlanChoice } from './plans-table';
import { ReviewCard } from './review-card';
import { TodayCard } from './today-card';
import type { PlanChangeResult } from './types';
import { UsageChart } from './usage-chart';
import { useUsage } from './use-usage';
import { useRoleRefusal } from '../create-gate/role-refusal';

export function BillingView() {
  const usage = useUsage({ fresh: true });
  // Billing is live state: in test mode the server refuses changes, so the page says why first.
  // Plan changes and overage share one rule (the owner and the billing role).
  const roleRefusal = useRoleRefusal('organization.changePlan');
  const invoicesRefusal = useRoleRefusal('billing.invoices');
  const testMode = useDashboardMode() === 'test';
  const readOnlyReason = roleRefusal ?? (testMode ? 'The dashboard is in test mode: switch to Live to change billing.' : null);
  const [choosing, setChoosing] = useState<{ target: Plan; choice: PlanChoice } | null>(null);
  const [lastChange, setLastChange] = useState<PlanChangeResult | null>(null);
  const choose = (target: Plan, choice: PlanChoice) => {
    setLastChange(null);
    setChoosing({ target, choice });
  };
  const current = usage.data ? PLANS[usage.data.plan.id as PlanId] : null;

  return (
    <>
      <PageHeader
        title="Usage and billing"
        description="Your plan, what you have sent this month and today against its limits, and metered overage. Days and months are UTC."
      />

      {usage.isPending && <BillingSkeleton />}

      {usage.isError && <ErrorAlert error={usage.error} fallbackTitle="Could not load your usage" action={<RetryButton query={usage} />} />}

      {usage.data && (
        <div className="space-y-6" data-testid="billing" data-plan={usage.data.plan.id}>
          <PlanRequestBanner usage={usage.data} readOnlyReason={readOnlyReason} />
          <PaymentPendingBanner usage={usage.data} />
          <PendingChangeBanner
            usage={usage.data}
            action={
              current && (
                <Button variant="secondary" size="sm" disabled={readOnlyReason !== null} onClick={() => choose(current, 'keep')}>
                  Keep {current.label}
                </Button>
              )
            }
          />
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
          {invoicesRefusal === null && <InvoicesSection />}
          <section aria-labelledby="plans-heading" data-testid="plans">
            <h2 id="plans-heading" className="text-base font-semibold text-slate-900">
              Plans
            </h2>
            <p className="mt-1 mb-4 text-sm text-slate-500">
              You are on <span className="font-medium text-slate-700" data-testid="current-plan">{usage.data.plan.label}</span>. Prices are per month, in euros. An
              upgrade takes effect once it is paid (where the service takes no payments online, once the operator approves it); a
              downgrade takes effect at the start of the next month (UTC).
              {readOnlyReason && ` ${readOnlyReason}`}
            </p>
            {lastChange && <PlanChangeNotice result={lastChange} />}
            <PlansTable usage={usage.data} onChoose={choose} disabled={readOnlyReason !== null} />
          </section>
        </div>
      )}

      {usage.data && choosing && (
        <ChangePlanDialog
          usage={usage.data}
          target={choosing.target}
          choice={choosing.choice}
          onClose={() => setChoosing(null)}
          onChanged={(result) => {
            setChoosing(null);
            setLastChange(result);
          }}
        />
      )}
    </>
  );
}
