import { Bar, barPercent } from '../../components/bar';
import { formatCount } from '../../lib/format';

const HATCHED = { backgroundImage: 'repeating-linear-gradient(135deg, rgb(255 255 255 / 0.45) 0 3px, transparent 3px 6px)' };

/**
 * A bar of `human + machine` out of `total` in two parts: the emails a person opened (or clicked)
 * in the count's colour, then those only proxies and scanners did, hatched grey, so a
 * machine-inflated number is never read as people's.
 */
export function SplitBar({ label, human, machine, total, fill, testId }: { label: string; human: number; machine: number; total: number; fill: string; testId?: string }) {
  const humanWidth = barPercent(human, total);
  const machineWidth = Math.min(barPercent(machine, total), 100 - humanWidth);
  return (
    <Bar
      label={label}
      max={total}
      now={Math.min(human + machine, total)}
      valueText={`${formatCount(human + machine)} of ${formatCount(total)}, ${formatCount(machine)} of them by machines only`}
      parts={[
        { percent: humanWidth, fill },
        { percent: machineWidth, fill: 'bg-slate-400', style: HATCHED, title: 'By machines only (privacy proxies, link scanners)' },
      ]}
      data-testid={testId}
      data-human={human}
      data-machine={machine}
    />
  );
}
