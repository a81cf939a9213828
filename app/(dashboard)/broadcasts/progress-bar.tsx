import { cx } from '../../components/cx';
import { formatCount } from '../../lib/format';

/**
 * A bar of `value` out of `total`: how far the fan-out (queued of recipients) or delivery (sent
 * of queued) has come. A little progress shows as a sliver, not nothing.
 */
export function ProgressBar({ label, value, total, tone = 'indigo', size = 'md', testId }: {
  label: string;
  value: number;
  total: number;
  tone?: 'indigo' | 'sky' | 'emerald' | 'orange' | 'fuchsia' | 'violet';
  size?: 'sm' | 'md';
  testId?: string;
}) {
  const percent = total > 0 ? Math.min(100, (value / total) * 100) : 0;
  const shown = value > 0 ? Math.max(percent, 1.5) : 0;
  const fills = { indigo: 'bg-indigo-600', sky: 'bg-sky-500', emerald: 'bg-emerald-500', orange: 'bg-orange-500', fuchsia: 'bg-fuchsia-500', violet: 'bg-violet-500' };
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={Math.min(value, total)}
      aria-valuetext={`${formatCount(value)} of ${formatCount(total)}`}
      data-testid={testId}
      data-value={value}
      data-total={total}
      className={cx('overflow-hidden rounded-full bg-slate-200', size === 'sm' ? 'h-1.5' : 'h-2.5')}
    >
      <div className={cx('h-full rounded-full transition-[width] duration-500', fills[tone])} style={{ width: `${shown}%` }} />
    </div>
  );
}
