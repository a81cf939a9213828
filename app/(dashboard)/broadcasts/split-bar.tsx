import { formatCount } from '../../lib/format';

/**
 * A bar of `human + machine` out of `total` in two parts: the emails a person opened (or clicked)
 * in the count's colour, then those only proxies and scanners did, hatched grey, so a
 * machine-inflated number is never read as people's.
 */
export function SplitBar({ label, human, machine, total, fill, testId }: { label: string; human: number; machine: number; total: number; fill: string; testId?: string }) {
  const share = (value: number) => (total > 0 && value > 0 ? Math.max(Math.min(100, (value / total) * 100), 1.5) : 0);
  const humanWidth = share(human);
  const machineWidth = Math.min(share(machine), 100 - humanWidth);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={Math.min(human + machine, total)}
      aria-valuetext={`${formatCount(human + machine)} of ${formatCount(total)}, ${formatCount(machine)} of them by machines only`}
      data-testid={testId}
      data-human={human}
      data-machine={machine}
      className="flex h-2.5 overflow-hidden rounded-full bg-slate-200"
    >
      <div className={`h-full ${fill} transition-[width] duration-500`} style={{ width: `${humanWidth}%` }} />
      <div
        className="h-full bg-slate-400 transition-[width] duration-500"
        style={{ width: `${machineWidth}%`, backgroundImage: 'repeating-linear-gradient(135deg, rgb(255 255 255 / 0.45) 0 3px, transparent 3px 6px)' }}
        title="By machines only (privacy proxies, link scanners)"
      />
    </div>
  );
}
