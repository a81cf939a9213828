import { CircleCheckIcon } from 'lucide-react';
import { formatCount } from '../../lib/format';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { UsageMeter } from './usage-meter';

/** The one-time allowance of list-shaped sending before an operator reviews the account. */
export function ReviewCard({ usage }: { usage: Usage }) {
  const { review } = usage;
  return (
    <SectionCard id="review" title="Broadcasts and list sends" testId="review-allowance">
      {review.reviewed ? (
        <p className="flex items-start gap-2 text-sm text-slate-600" data-testid="review-done">
          <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-600" />
          Your account is reviewed: broadcasts and list-shaped batches count only against the daily ceiling and the monthly quota.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            <span className="text-2xl font-semibold text-slate-900 tabular-nums" data-testid="review-used">
              {formatCount(review.used)}
            </span>{' '}
            of {formatCount(review.allowance)} recipients
          </p>
          <div className="mt-3">
            <UsageMeter label="List-send allowance used" used={review.used} limit={review.allowance} unit="recipients" testId="review-meter" />
          </div>
          <p className="mt-3 text-sm text-slate-600">
            Until we review your account, broadcasts and list-shaped batches may reach {formatCount(review.allowance)} recipients in all;{' '}
            <span data-testid="review-remaining">{formatCount(review.remaining ?? 0)}</span> are left. Transactional email is not held to this, and the
            allowance is used once, not each month.
          </p>
        </>
      )}
    </SectionCard>
  );
}
