import { Bar, barPercent } from '../../components/bar';
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
  const tone = meterTone(used, limit);
  const markPercent = mark && limit > 0 ? Math.min(100, (mark.at / limit) * 100) : null;
  return (
    <Bar
      role="meter"
      label={label}
      max={limit}
      now={Math.min(used, limit)}
      valueText={`${formatCount(used)} of ${formatCount(limit)}${unit ? ` ${unit}` : ''}`}
      size={size}
      parts={[{ percent: barPercent(used, limit), fill: (cap ? capFills : fills)[tone] }]}
      data-testid={testId}
      data-tone={tone}
    >
      {markPercent !== null && (
        <div className="absolute inset-y-0 w-0.5 bg-slate-500" style={{ left: `calc(${markPercent}% - 1px)` }} title={mark!.label} aria-hidden="true" />
      )}
    </Bar>
  );
}
