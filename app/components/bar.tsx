import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';

/** One part of a bar: how much of the track it fills, in percent, and in what. */
export interface BarPart {
  percent: number;
  fill: string;
  style?: CSSProperties;
  title?: string;
}

/**
 * How much of a bar `value` out of `total` fills, in percent: a little shows as a sliver rather
 * than nothing ("some" reads differently from "none"), and anything against a zero total fills it.
 */
export function barPercent(value: number, total: number): number {
  if (value <= 0) return 0;
  if (total <= 0) return 100;
  return Math.max(Math.min(100, (value / total) * 100), 1.5);
}

/**
 * A thin bar on a grey track, read out as a progress bar or a meter: one part with a rounded end,
 * or several side by side that meet square. `children` are drawn over it (a tick mark).
 */
export function Bar({
  role = 'progressbar',
  label,
  max,
  now,
  valueText,
  parts,
  size = 'md',
  children,
  ...attributes
}: {
  role?: 'progressbar' | 'meter';
  label: string;
  max: number;
  now: number;
  /** What a screen reader says, in words ("12 of 40 rows"). */
  valueText: string;
  parts: BarPart[];
  size?: 'sm' | 'md';
  children?: ReactNode;
} & Omit<HTMLAttributes<HTMLDivElement>, 'role' | 'className' | 'children'>) {
  const single = parts.length === 1;
  return (
    <div
      role={role}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={now}
      aria-valuetext={valueText}
      className={cx('relative flex overflow-hidden rounded-full bg-slate-200', size === 'sm' ? 'h-1.5' : 'h-2.5')}
      {...attributes}
    >
      {parts.map((part, index) => (
        <div key={index} className={cx('h-full transition-[width] duration-500', single && 'rounded-full', part.fill)} style={{ ...part.style, width: `${part.percent}%` }} title={part.title} />
      ))}
      {children}
    </div>
  );
}
