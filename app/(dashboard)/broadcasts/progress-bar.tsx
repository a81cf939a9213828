import { Bar, barPercent } from '../../components/bar';
import { formatCount } from '../../lib/format';

/** The colours a count of a broadcast is drawn in. */
export const TONE_FILLS = { indigo: 'bg-indigo-600', sky: 'bg-sky-500', emerald: 'bg-emerald-500', orange: 'bg-orange-500', fuchsia: 'bg-fuchsia-500', violet: 'bg-violet-500' } as const;
export type Tone = keyof typeof TONE_FILLS;

/**
 * A bar of `value` out of `total`: how far the fan-out (queued of recipients) or delivery (sent
 * of queued) has come. A little progress shows as a sliver, not nothing.
 */
export function ProgressBar({ label, value, total, tone = 'indigo', size = 'md', testId }: {
  label: string;
  value: number;
  total: number;
  tone?: Tone;
  size?: 'sm' | 'md';
  testId?: string;
}) {
  return (
    <Bar
      label={label}
      max={total}
      now={Math.min(value, total)}
      valueText={`${formatCount(value)} of ${formatCount(total)}`}
      size={size}
      parts={[{ percent: barPercent(value, total), fill: TONE_FILLS[tone] }]}
      data-testid={testId}
      data-value={value}
      data-total={total}
    />
  );
}
