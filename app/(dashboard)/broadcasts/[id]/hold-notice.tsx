'use client';

import { PauseCircleIcon } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useUsage } from '../../billing/use-usage';
import type { Broadcast, HoldReason } from '../types';
import { ResumeButton } from './resume-button';

function Frame({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div role="status" className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-start" data-testid="hold-notice">
      <PauseCircleIcon className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{title}</p>
        <div className="mt-0.5">{children}</div>
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}

/**
 * Why a held broadcast waits and when it goes on: after review (an operator's decision), or when
 * the limit resets, a time the usage read tells (the same reset the fan-out waits for).
 */
export function HoldNotice({ broadcast, reason }: { broadcast: Broadcast; reason: HoldReason }) {
  const usage = useUsage();
  if (reason === 'review') {
    const allowance = usage.data?.review.allowance ?? broadcast.counts.queued;
    return (
      <Frame title="Held for review">
        <span data-testid="hold-reason" data-reason="review">
          Held for review after {formatCount(allowance)} recipients: a new account&apos;s first list sends are reviewed before they go further. It resumes
          where it stopped once approved, by itself; we emailed you about it. The {formatCount(broadcast.counts.queued)} already handed to delivery go out meanwhile.
        </span>
      </Frame>
    );
  }
  const daily = reason === 'daily_limit';
  const resetsAt = daily ? usage.data?.today.resetsAt : usage.data?.month.resetsAt;
  return (
    <Frame title={daily ? "Held: today's sending limit is reached" : "Held: this month's quota is used up"} action={<ResumeButton broadcast={broadcast} />}>
      <span data-testid="hold-reason" data-reason={reason}>
        {daily ? 'The daily limit of your account is reached' : 'Your plan’s emails for this month are used up (broadcasts never use metered overage)'}. It resumes
        {resetsAt ? ` at ${formatDateTime(resetsAt)}` : ' when the limit resets'}, by itself, where it stopped.{' '}
        {!daily && (
          <>
            <Link href="/billing" className="font-medium underline">
              A larger plan
            </Link>{' '}
            lets it go on sooner.
          </>
        )}
      </span>
    </Frame>
  );
}
