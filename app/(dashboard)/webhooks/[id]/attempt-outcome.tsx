import { CircleCheckIcon, CircleXIcon } from 'lucide-react';
import { cx } from '../../../components/cx';
import type { ManualAttempt } from '../types';
import { errorBeyondStatus } from './attempt-error';
import { ResponseExcerpt } from './response-excerpt';

/** What the endpoint said to an attempt made just now (a test event or a replay). */
export function AttemptOutcome({ outcome }: { outcome: ManualAttempt }) {
  const { attempt } = outcome;
  const Icon = attempt.succeeded ? CircleCheckIcon : CircleXIcon;
  const error = errorBeyondStatus(attempt);
  return (
    <div
      role="status"
      data-testid="attempt-outcome"
      data-succeeded={attempt.succeeded}
      className={cx('rounded-lg border p-3 text-sm', attempt.succeeded ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-red-200 bg-red-50 text-red-800')}
    >
      <p className="flex items-center gap-2 font-semibold">
        <Icon className="size-4 shrink-0" />
        {attempt.succeeded ? 'Delivered' : 'Failed'}
        <span className="font-normal" data-testid="attempt-outcome-summary">
          {attempt.responseStatus !== null ? `answered ${attempt.responseStatus}` : 'no answer'} in {attempt.durationMs} ms
        </span>
      </p>
      {error && <p className="mt-1 break-words">{error}</p>}
      {attempt.responseExcerpt && <ResponseExcerpt text={attempt.responseExcerpt} />}
    </div>
  );
}
