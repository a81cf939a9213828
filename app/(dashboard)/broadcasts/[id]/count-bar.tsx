import { formatCount } from '../../../lib/format';
import { ProgressBar, TONE_FILLS, type Tone } from '../progress-bar';
import { SplitBar } from '../split-bar';

/** "34 %", or "—" against nothing; under one percent shows as "<1 %" rather than a misleading 0. */
export function percentOf(value: number, total: number): string {
  if (total <= 0) return '—';
  const percent = (value / total) * 100;
  if (value > 0 && percent < 1) return '<1 %';
  return `${Math.round(percent)} %`;
}

/**
 * One count of the broadcast as a labelled bar against its whole, with the number and its share.
 * With `machine` (opens and clicks), the part of `value` that only machines made is shown apart.
 */
export function CountBar({ label, value, total, tone, testId, hint, machine }: {
  label: string;
  value: number;
  total: number;
  tone: Tone;
  testId: string;
  hint?: string;
  machine?: number;
}) {
  return (
    <div className="grid grid-cols-[8rem_1fr_auto] items-center gap-x-4 gap-y-1" title={hint}>
      <dt className="text-sm text-slate-600">{label}</dt>
      {machine === undefined ? (
        <ProgressBar label={label} value={value} total={total} tone={tone} />
      ) : (
        <SplitBar label={label} human={value - machine} machine={machine} total={total} fill={TONE_FILLS[tone]} testId={`${testId}-bar`} />
      )}
      <dd className="w-40 text-right text-sm whitespace-nowrap tabular-nums">
        <span className="font-semibold text-slate-900" data-testid={testId} data-value={value}>
          {formatCount(value)}
        </span>{' '}
        <span className="text-slate-500">{percentOf(value, total)}</span>
        {machine !== undefined && machine > 0 && (
          <span className="block text-xs text-slate-500" data-testid={`${testId}-machine`} data-value={machine}>
            {formatCount(machine)} by machines only
          </span>
        )}
      </dd>
    </div>
  );
}
