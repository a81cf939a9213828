'use client';

import { useState } from 'react';
import { cx } from '../../components/cx';
import { formatCompact, formatCount, formatDay } from '../../lib/format';
import { niceAxis } from '../billing/chart-data';
import { useElementWidth } from '../billing/use-element-width';
import { MACHINE_OPENS, SERIES, tallest } from './activity-series';
import type { ActivityDay } from './types';

const HEIGHT = 220;
const TOP = 10;
const AXIS_HEIGHT = 22;
const MARGIN_LEFT = 40;
const MARGIN_RIGHT = 8;
const GAP = 2;

function DayReadout({ day, isToday }: { day: ActivityDay; isToday: boolean }) {
  const parts = [
    `${formatCount(day.sent)} sent`,
    `${formatCount(day.delivered)} delivered`,
    `${formatCount(day.bounced)} bounced`,
    `${formatCount(day.complained)} complained`,
    `${formatCount(day.opened)} opened`,
    ...(day.machineOpened > 0 ? [`${formatCount(day.machineOpened)} opened by a machine`] : []),
  ];
  return (
    <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600" data-testid="activity-readout">
      <span className="font-medium text-slate-900">
        {formatDay(day.day)}
        {isToday ? ' (today)' : ''}:
      </span>{' '}
      {parts.join(' · ')}
    </p>
  );
}

/** Seven days side by side, each a group of bars: sent, delivered, bounced, complained, opened. */
export function ActivityChart({ days }: { days: ActivityDay[] }) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [hovered, setHovered] = useState<number | null>(null);
  const today = days.length - 1;
  const axis = niceAxis(tallest(days), 4);
  const bottom = HEIGHT - AXIS_HEIGHT;
  const y = (value: number) => bottom - (value / axis.top) * (bottom - TOP);
  const slot = width > 0 ? (width - MARGIN_LEFT - MARGIN_RIGHT) / days.length : 0;
  const barWidth = Math.max(3, Math.min(16, (slot * 0.75 - GAP * (SERIES.length - 1)) / SERIES.length));
  const groupWidth = barWidth * SERIES.length + GAP * (SERIES.length - 1);
  const sent = days.reduce((sum, day) => sum + day.sent, 0);

  return (
    <div className="space-y-3">
      <div ref={ref} style={{ height: HEIGHT }} onMouseLeave={() => setHovered(null)}>
        {width > 0 && (
          <svg width={width} height={HEIGHT} role="img" aria-label={`Emails by day over the last 7 days: ${formatCount(sent)} sent`} data-testid="activity-svg">
            {axis.ticks.map((tick) => (
              <g key={tick}>
                <line x1={MARGIN_LEFT} x2={width - MARGIN_RIGHT} y1={y(tick)} y2={y(tick)} className="stroke-slate-200" strokeWidth={1} />
                <text x={MARGIN_LEFT - 6} y={y(tick) + 4} textAnchor="end" className="fill-slate-400 text-[11px] tabular-nums">
                  {formatCompact(tick)}
                </text>
              </g>
            ))}
            {days.map((day, index) => {
              const x0 = MARGIN_LEFT + index * slot;
              const left = x0 + (slot - groupWidth) / 2;
              return (
                <g key={day.day} data-testid="activity-day" data-day={day.day}>
                  <rect
                    x={x0}
                    y={TOP}
                    width={slot}
                    height={bottom - TOP}
                    className={index === hovered ? 'fill-slate-100' : index === today ? 'fill-indigo-50/60' : 'fill-transparent'}
                    onMouseEnter={() => setHovered(index)}
                  />
                  {SERIES.map(({ key, fill }, position) => {
                    const x = left + position * (barWidth + GAP);
                    const value = day[key];
                    const machine = key === 'opened' ? day.machineOpened : 0;
                    return (
                      <g key={key} className="pointer-events-none" data-series={key} data-value={value}>
                        {value > 0 && <rect x={x} y={y(value)} width={barWidth} height={bottom - y(value)} rx={1.5} className={fill} />}
                        {machine > 0 && <rect x={x} y={y(value + machine)} width={barWidth} height={y(value) - y(value + machine)} rx={1.5} className={MACHINE_OPENS.fill} />}
                      </g>
                    );
                  })}
                  <text x={x0 + slot / 2} y={HEIGHT - 6} textAnchor="middle" className={cx('text-[11px]', index === today ? 'fill-slate-900 font-medium' : 'fill-slate-500')}>
                    {index === today ? 'Today' : formatDay(day.day)}
                  </text>
                </g>
              );
            })}
            <line x1={MARGIN_LEFT} x2={width - MARGIN_RIGHT} y1={bottom} y2={bottom} className="stroke-slate-300" strokeWidth={1} />
          </svg>
        )}
      </div>
      <DayReadout day={days[hovered ?? today]!} isToday={(hovered ?? today) === today} />
    </div>
  );
}
