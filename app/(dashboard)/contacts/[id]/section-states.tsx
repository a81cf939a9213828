'use client';

import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton, type RetryableQuery } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';

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
