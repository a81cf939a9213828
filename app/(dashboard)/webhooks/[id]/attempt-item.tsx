import { CircleCheckIcon, CircleXIcon } from 'lucide-react';
import { Badge } from '../../../components/badge';
import { formatPreciseDateTime } from '../../../lib/format';
import type { Attempt } from '../types';
import { errorBeyondStatus } from './attempt-error';
import { TRIGGER_LABELS } from './attempt-triggers';
import { ResponseExcerpt } from './response-excerpt';

/** One attempt: why it was made, when, what came back and how fast. */
export function AttemptItem({ attempt }: { attempt: Attempt }) {
  const Icon = attempt.succeeded ? CircleCheckIcon : CircleXIcon;
  const error = errorBeyondStatus(attempt);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3" data-testid="delivery-attempt" data-succeeded={attempt.succeeded} data-trigger={attempt.trigger}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Icon className={attempt.succeeded ? 'size-4 shrink-0 text-emerald-600' : 'size-4 shrink-0 text-red-600'} aria-label={attempt.succeeded ? 'Succeeded' : 'Failed'} />
        <span className="font-medium text-slate-900">{attempt.responseStatus !== null ? `HTTP ${attempt.responseStatus}` : 'No answer'}</span>
        <span className="text-slate-500 tabular-nums">{attempt.durationMs} ms</span>
        <Badge tone="neutral">{TRIGGER_LABELS[attempt.trigger]}</Badge>
        <time dateTime={attempt.attemptedAt} className="text-xs text-slate-500 sm:ml-auto">
          {formatPreciseDateTime(attempt.attemptedAt)}
        </time>
      </div>
      {error && <p className="mt-1.5 text-xs break-words text-red-700">{error}</p>}
      {attempt.responseExcerpt && <ResponseExcerpt text={attempt.responseExcerpt} />}
    </li>
  );
}
