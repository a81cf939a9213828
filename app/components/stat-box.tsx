import { cx } from './cx';
import { formatCount } from '../lib/format';

/** One number of a summary (a `dt`/`dd` pair in a box); a tone colours it when it is above zero. */
export function StatBox({ label, value, testId, tone = 'neutral' }: { label: string; value: number; testId: string; tone?: 'neutral' | 'good' | 'bad' }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2.5">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd
        className={cx('mt-0.5 text-xl font-semibold tabular-nums', tone === 'good' && value > 0 ? 'text-emerald-700' : tone === 'bad' && value > 0 ? 'text-red-700' : 'text-slate-900')}
        data-testid={testId}
        data-value={value}
      >
        {formatCount(value)}
      </dd>
    </div>
  );
}
