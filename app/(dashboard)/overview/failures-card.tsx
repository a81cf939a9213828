'use client';

import Link from 'next/link';
import { ShieldCheckIcon } from 'lucide-react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { RelativeTime } from '../../components/relative-time';
import { Skeleton } from '../../components/skeleton';
import { BounceNote } from '../emails/[id]/bounce-note';
import { EmailStatusBadge } from '../emails/status-badge';
import { SectionCard } from '../billing/section-card';
import type { Failure } from './types';
import type { ActivityQuery } from './use-overview';

function FailureItem({ failure }: { failure: Failure }) {
  return (
    <li className="py-3 first:pt-0 last:pb-0" data-testid="failure" data-status={failure.status}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <EmailStatusBadge status={failure.status} />
        <Link href={`/emails/${failure.emailId}`} className="min-w-0 truncate font-medium text-indigo-600 hover:text-indigo-500" data-testid="failure-link">
          {failure.subject || '(no subject)'}
        </Link>
        {failure.recipient && <span className="truncate text-slate-600">to {failure.recipient}</span>}
        <RelativeTime iso={failure.at} className="ml-auto text-xs text-slate-500" />
      </div>
      {failure.bounce ? (
        <BounceNote bounce={failure.bounce} />
      ) : (
        failure.reason && (
          <p className="mt-1.5 rounded-md bg-slate-50 px-2.5 py-2 text-xs text-slate-700" data-testid="failure-reason">
            Not delivered: {failure.reason}.
          </p>
        )
      )}
    </li>
  );
}

/** The newest bounced, failed and complained emails, with what the answer means and what to do. */
export function FailuresCard({ query }: { query: ActivityQuery }) {
  return (
    <SectionCard
      id="failures"
      title="Recent failures"
      description="The newest emails that bounced, failed or drew a complaint, explained."
      testId="recent-failures"
      action={
        <Link href="/emails" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
          All emails
        </Link>
      }
    >
      {query.isPending && (
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      )}
      {query.isError && (
        <ErrorAlert
          error={query.error}
          fallbackTitle="Could not load the recent failures"
          action={
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
              Try again
            </Button>
          }
        />
      )}
      {query.data &&
        (query.data.failures.length === 0 ? (
          <div className="flex items-center gap-3 text-sm text-slate-500" data-testid="failures-empty">
            <ShieldCheckIcon className="size-5 shrink-0 text-emerald-600" aria-hidden="true" />
            No bounces, failures or complaints among your recent emails.
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {query.data.failures.map((failure) => (
              <FailureItem key={failure.emailId} failure={failure} />
            ))}
          </ul>
        ))}
    </SectionCard>
  );
}
