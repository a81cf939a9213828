import type { ReactNode } from 'react';
import { CircleCheckIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

/** Nothing to list: no address suppressed at all (good news), or none matching the search and filter. */
export function SuppressionsEmpty({ filtered, action }: { filtered: boolean; action: ReactNode }) {
  if (filtered) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500" data-testid="suppressions-empty" data-filtered="true">
        No suppressed address matches this search and filter.
      </div>
    );
  }
  return (
    <EmptyState testId="suppressions-empty" icon={<CircleCheckIcon className="size-6" />} title="No suppressed addresses" action={action}>
      Good news: every send goes to all of its recipients. When an email hard-bounces or is marked as spam, its address appears here by itself. You
      can also add addresses you must not email, such as unsubscribes kept by another system.
    </EmptyState>
  );
}
