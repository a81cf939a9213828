'use client';

import { useId, type ReactNode } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton, type RetryableQuery } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';

/** One card of the contact's page: its heading, what it shows, an action beside them, and its content. */
export function ContactSection({ testId, title, description, action, children }: { testId: string; title: string; description: ReactNode; action?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid={testId}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-1 text-sm text-slate-500">{description}</p>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/** A section's list while it loads (two grey rows) or when it could not be loaded (the error, and Try again); nothing once it is there. */
export function SectionLoadState({ query, errorTitle }: { query: RetryableQuery & { isPending: boolean; isError: boolean; error: unknown }; errorTitle: string }) {
  if (query.isPending) {
    return (
      <div className="mt-4 space-y-2" aria-busy="true">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="mt-4">
        <ErrorAlert error={query.error} fallbackTitle={errorTitle} action={<RetryButton query={query} />} />
      </div>
    );
  }
  return null;
}

/** A section with nothing to list: why, and where to go about it. */
export function SectionEmpty({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="mt-4 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500" data-testid={testId}>
      {children}
    </p>
  );
}
