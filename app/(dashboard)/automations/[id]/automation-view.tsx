'use client';

import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';
import { BackToAutomations } from '../back-to-automations';
import { AutomationEditor } from '../editor/automation-editor';
import { AutomationNotFound } from './automation-not-found';
import { useAutomation } from './use-automation';

export function AutomationView({ id }: { id: string }) {
  const { query, notFound } = useAutomation(id);
  // Once loaded, the editor stays through a failed background refetch: its unsaved edits are not dropped.
  if (query.data) return <AutomationEditor key={query.data.id} automation={query.data} />;
  if (query.isPending) {
    return (
      <div className="space-y-4" data-testid="automation-skeleton">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-28 w-full rounded-xl" />
        <Skeleton className="h-28 w-full rounded-xl" />
      </div>
    );
  }
  if (notFound) return <AutomationNotFound />;
  return (
    <div className="space-y-4">
      <BackToAutomations />
      <ErrorAlert error={query.error} fallbackTitle="Could not load this automation" action={<RetryButton query={query} />} />
    </div>
  );
}
