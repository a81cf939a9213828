'use client';

import { useState } from 'react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { Skeleton } from '../../components/skeleton';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { ActivityCard } from './activity-card';
import { ChecklistCard } from './checklist-card';
import { FailuresCard } from './failures-card';
import { SetupDone } from './setup-done';
import type { Checklist } from './types';
import { UsageCard } from './usage-card';
import { useActivity, useChecklist } from './use-overview';
import { useSetupDismissed } from './use-setup-dismissed';

function ChecklistSkeleton() {
  return (
    <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-busy="true" data-testid="setup-loading">
      <Skeleton className="h-5 w-32" />
      {Array.from({ length: 5 }, (_, index) => (
        <div key={index} className="flex items-center gap-3">
          <Skeleton className="size-6 rounded-full" />
          <Skeleton className="h-4 w-64" />
        </div>
      ))}
    </div>
  );
}

/** Getting started while any step is open; once all are done, one line that can show them again or go. */
function Setup({ checklist }: { checklist: Checklist }) {
  const [dismissed, dismiss] = useSetupDismissed(checklist.organizationId);
  const [showSteps, setShowSteps] = useState(false);
  if (!checklist.done) return <ChecklistCard checklist={checklist} />;
  if (showSteps) return <ChecklistCard checklist={checklist} onHide={() => setShowSteps(false)} />;
  if (dismissed) return null;
  return <SetupDone checklist={checklist} onShowSteps={() => setShowSteps(true)} onDismiss={dismiss} />;
}

/** The dashboard's home: getting started, the last seven days, recent failures and usage. */
export function OverviewView() {
  const mode = useDashboardMode();
  const checklist = useChecklist();
  const activity = useActivity({ settingUp: !checklist.data?.done });
  return (
    <div data-testid="overview">
      <PageHeader
        title="Overview"
        description={mode === 'test' ? 'Getting started, and the last 7 days of test-mode email.' : 'Getting started, and the last 7 days of your email.'}
      />
      <div className="space-y-6">
        {checklist.isPending && <ChecklistSkeleton />}
        {checklist.isError && (
          <ErrorAlert
            error={checklist.error}
            fallbackTitle="Could not load the getting-started steps"
            action={
              <Button variant="secondary" size="sm" onClick={() => void checklist.refetch()} loading={checklist.isFetching}>
                Try again
              </Button>
            }
          />
        )}
        {checklist.data && <Setup checklist={checklist.data} />}
        <div className="grid gap-6 lg:grid-cols-3">
          <ActivityCard query={activity} className="lg:col-span-2" />
          <UsageCard className="lg:self-start" />
        </div>
        <FailuresCard query={activity} />
      </div>
    </div>
  );
}
