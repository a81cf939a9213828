import { cx } from '../../components/cx';
import { formatCount } from '../../lib/format';

/** Indigo while there is room, amber from 80 %, red when the limit is reached. */
export function meterTone(used: number, limit: number): 'ok' | 'near' | 'full' {
  if (limit <= 0 || used >= limit) return 'full';
  return used / limit >= 0.8 ? 'near' : 'ok';
}

const fills = { ok: 'bg-indigo-600', near: 'bg-amber-500', full: 'bg-red-600' } as const;
/** A cap that is reached stops nothing already there, only the next one: amber, not red. */
const capFills = { ...fills, full: 'bg-amber-500' } as const;

/**
 * A thin bar of `used` out of `limit`. `mark` draws a tick at a count inside the bar: the quota,
 * when the bar runs on to the overage stop.
 */
export function UsageMeter({
  label,
  used,
  limit,
  unit,
  mark,
  size = 'md',
  cap = false,
  testId,
}: {
  label: string;
  used: number;
  limit: number;
  /** "emails", "recipients": what the screen reader hears after the numbers. */
  unit?: string;
  mark?: { at: number; label: string };
  size?: 'sm' | 'md';
  /** A plan cap (domains, keys) rather than a limit that stops sending. */
  cap?: boolean;
  testId?: string;
}) {
  const percent = limit > 0 ? Math.min(100, (used / limit) * 100) : 100;
  // A little use shows as a sliver rather than nothing: "some" reads differently from "none".
  const shown = used > 0 ? Math.max(percent, 1.5) : 0;
  const tone = meterTone(used, limit);
  const markPercent = mark && limit > 0 ? Math.min(100, (mark.at / limit) * 100) : null;
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={limit}
      aria-valuenow={Math.min(used, limit)}
      aria-valuetext={`${formatCount(used)} of ${formatCount(limit)}${unit ? ` ${unit}` : ''}`}
      data-testid={testId}
      data-tone={tone}
      className={cx('relative overflow-hidden rounded-full bg-slate-200', size === 'sm' ? 'h-1.5' : 'h-2.5')}
    >
      <div className={cx('h-full rounded-full transition-[width] duration-300', (cap ? capFills : fills)[tone])} style={{ width: `${shown}%` }} />
      {markPercent !== null && (
        <div className="absolute inset-y-0 w-0.5 bg-slate-500" style={{ left: `calc(${markPercent}% - 1px)` }} title={mark!.label} aria-hidden="true" />
      )}
    </div>
  );
}
