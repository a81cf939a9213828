'use client';

import { useMemo, useState } from 'react';
import { ChartColumnStackedIcon } from 'lucide-react';
import { cx } from '../../components/cx';
import { formatCompact, formatCount, formatDay } from '../../lib/format';
import { hasActivity, monthDays, niceAxis, type ChartDay } from './chart-data';
import { SectionCard } from './section-card';
import type { Usage } from './types';
import { useElementWidth } from './use-element-width';

// Both panels share these, so a day sits at the same x in each.
const MARGIN_LEFT = 44;
const MARGIN_RIGHT = 8;
const AXIS_HEIGHT = 20;

/** The parts of a day's bar, bottom up; together they are the messages sent that day. */
const OUTCOMES = [
  { key: 'deliveredOnly', label: 'Delivered', fill: 'fill-emerald-500', swatch: 'bg-emerald-500' },
  { key: 'complained', label: 'Complained', fill: 'fill-orange-400', swatch: 'bg-orange-400' },
  { key: 'bounced', label: 'Bounced', fill: 'fill-red-500', swatch: 'bg-red-500' },
  { key: 'awaiting', label: 'Awaiting outcome', fill: 'fill-slate-300', swatch: 'bg-slate-300' },
] as const;

const outcomeCounts = (day: ChartDay) => ({
  deliveredOnly: Math.max(0, day.delivered - day.complained),
  complained: day.complained,
  bounced: day.bounced,
  awaiting: day.awaiting,
});

interface Geometry {
  width: number;
  slot: number;
  /** The centre of day `index`'s slot. */
  x: (index: number) => number;
  /** Which days get a label under the axis: all of them when there is room. */
  labelled: (day: ChartDay) => boolean;
}

function geometryOf(width: number, count: number): Geometry {
  const slot = (width - MARGIN_LEFT - MARGIN_RIGHT) / count;
  const every = Math.max(1, Math.ceil(24 / slot));
  return {
    width,
    slot,
    x: (index) => MARGIN_LEFT + slot * (index + 0.5),
    labelled: (day) => every === 1 || (day.date - 1) % every === 0,
  };
}

function DayAxis({ days, geometry, y }: { days: ChartDay[]; geometry: Geometry; y: number }) {
  return (
    <g aria-hidden="true">
      {days.map((day, index) =>
        geometry.labelled(day) ? (
          <text key={day.day} x={geometry.x(index)} y={y + 14} textAnchor="middle" className={cx('text-[11px]', day.isToday ? 'fill-indigo-700 font-semibold' : 'fill-slate-500')}>
            {day.date}
          </text>
        ) : null,
      )}
    </g>
  );
}

function ValueAxis({ ticks, y, width }: { ticks: number[]; y: (value: number) => number; width: number }) {
  return (
    <g aria-hidden="true">
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={MARGIN_LEFT} x2={width - MARGIN_RIGHT} y1={y(tick)} y2={y(tick)} className={tick === 0 ? 'stroke-slate-300' : 'stroke-slate-100'} />
          <text x={MARGIN_LEFT - 8} y={y(tick) + 4} textAnchor="end" className="fill-slate-400 text-[11px] tabular-nums">
            {formatCompact(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** A band behind the hovered day (and a faint one behind today), and the strips that catch the pointer. */
function DayBands({ days, geometry, top, height, hovered, onHover }: {
  days: ChartDay[];
  geometry: Geometry;
  top: number;
  height: number;
  hovered: number | null;
  onHover: (index: number) => void;
}) {
  return (
    <g>
      {days.map((day, index) => (
        <rect
          key={day.day}
          x={geometry.x(index) - geometry.slot / 2}
          y={top}
          width={geometry.slot}
          height={height}
          className={index === hovered ? 'fill-slate-100' : day.isToday ? 'fill-indigo-50/70' : 'fill-transparent'}
          onMouseEnter={() => onHover(index)}
        />
      ))}
    </g>
  );
}

const RUNNING_HEIGHT = 130;
const RUNNING_TOP = 20;

/** Recipients from the first of the month, day by day, under the quota (and the overage stop when on). */
function RunningTotalPanel({ days, usage, geometry, hovered, onHover }: { days: ChartDay[]; usage: Usage; geometry: Geometry; hovered: number | null; onHover: (index: number) => void }) {
  const overageOn = usage.overage.available && usage.overage.enabled;
  const lines = [
    { value: usage.month.quota, label: `Quota ${formatCount(usage.month.quota)}`, className: 'stroke-slate-500', text: 'fill-slate-600', dash: '6 4' },
    ...(overageOn ? [{ value: usage.overage.stopsAt, label: `Overage stop ${formatCount(usage.overage.stopsAt)}`, className: 'stroke-amber-500', text: 'fill-amber-700', dash: '2 3' }] : []),
  ];
  const sofar = days.filter((day) => day.runningTotal !== null);
  const highest = Math.max(...lines.map((line) => line.value), ...sofar.map((day) => day.runningTotal!));
  const axis = niceAxis(highest, 3);
  const bottom = RUNNING_HEIGHT - AXIS_HEIGHT;
  const y = (value: number) => bottom - (value / axis.top) * (bottom - RUNNING_TOP);
  const points = sofar.map((day, index) => `${geometry.x(index)},${y(day.runningTotal!)}`);
  const start = `${MARGIN_LEFT},${y(0)}`;
  const lastX = sofar.length > 0 ? geometry.x(sofar.length - 1) : MARGIN_LEFT;
  const total = sofar.at(-1)?.runningTotal ?? 0;
  return (
    <svg
      width={geometry.width}
      height={RUNNING_HEIGHT}
      role="img"
      aria-label={`Running total: ${formatCount(total)} recipients this month, against a quota of ${formatCount(usage.month.quota)}`}
      data-testid="running-total-chart"
    >
      <DayBands days={days} geometry={geometry} top={RUNNING_TOP} height={bottom - RUNNING_TOP} hovered={hovered} onHover={onHover} />
      <ValueAxis ticks={axis.ticks} y={y} width={geometry.width} />
      <polygon points={[start, ...points, `${lastX},${y(0)}`].join(' ')} className="pointer-events-none fill-indigo-500/15" />
      <polyline points={[start, ...points].join(' ')} className="pointer-events-none fill-none stroke-indigo-600" strokeWidth={2} strokeLinejoin="round" />
      {lines.map((line) => (
        <g key={line.label} className="pointer-events-none">
          <line x1={MARGIN_LEFT} x2={geometry.width - MARGIN_RIGHT} y1={y(line.value)} y2={y(line.value)} className={line.className} strokeDasharray={line.dash} strokeWidth={1.5} />
          <text x={geometry.width - MARGIN_RIGHT} y={y(line.value) - 5} textAnchor="end" className={cx('text-[11px] font-medium', line.text)}>
            {line.label}
          </text>
        </g>
      ))}
      <DayAxis days={days} geometry={geometry} y={bottom} />
    </svg>
  );
}

const BARS_HEIGHT = 200;
const BARS_TOP = 8;

/** Each day's messages sent, stacked by what has become of them. */
function OutcomeBarsPanel({ days, geometry, hovered, onHover }: { days: ChartDay[]; geometry: Geometry; hovered: number | null; onHover: (index: number) => void }) {
  const axis = niceAxis(Math.max(...days.map((day) => day.sent)), 4);
  const bottom = BARS_HEIGHT - AXIS_HEIGHT;
  const scale = (bottom - BARS_TOP) / axis.top;
  const barWidth = Math.max(2, Math.min(24, geometry.slot * 0.65));
  const sent = days.reduce((sum, day) => sum + day.sent, 0);
  return (
    <svg width={geometry.width} height={BARS_HEIGHT} role="img" aria-label={`Messages sent by day: ${formatCount(sent)} this month`} data-testid="outcome-chart">
      <DayBands days={days} geometry={geometry} top={BARS_TOP} height={bottom - BARS_TOP} hovered={hovered} onHover={onHover} />
      <ValueAxis ticks={axis.ticks} y={(value) => bottom - value * scale} width={geometry.width} />
      {days.map((day, index) => {
        const counts = outcomeCounts(day);
        let base = bottom;
        return (
          <g key={day.day} className="pointer-events-none" data-testid="outcome-bar" data-day={day.day}>
            {OUTCOMES.map(({ key, fill }) => {
              const height = counts[key] * scale;
              if (height <= 0) return null;
              base -= height;
              return <rect key={key} x={geometry.x(index) - barWidth / 2} y={base} width={barWidth} height={height} className={fill} />;
            })}
          </g>
        );
      })}
      <DayAxis days={days} geometry={geometry} y={bottom} />
    </svg>
  );
}

/** The numbers of the day under the pointer, or of today. */
function DayReadout({ day }: { day: ChartDay }) {
  const parts = [
    `${formatCount(day.recipients)} recipients accepted`,
    `${formatCount(day.sent)} sent`,
    `${formatCount(day.delivered)} delivered`,
    `${formatCount(day.bounced)} bounced`,
    `${formatCount(day.complained)} complained`,
    ...(day.awaiting > 0 ? [`${formatCount(day.awaiting)} awaiting outcome`] : []),
  ];
  return (
    <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600" data-testid="day-readout">
      <span className="font-medium text-slate-900">
        {formatDay(day.day)}
        {day.isToday ? ' (today)' : ''}:
      </span>{' '}
      {parts.join(' · ')}
    </p>
  );
}

function Legend({ items }: { items: Array<{ label: string; swatch: string }> }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          <span className={cx('inline-block', item.swatch)} aria-hidden="true" />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

function ChartPanels({ days, usage }: { days: ChartDay[]; usage: Usage }) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [hovered, setHovered] = useState<number | null>(null);
  const todayIndex = Math.max(0, days.findIndex((day) => day.isToday));
  const geometry = width > 0 ? geometryOf(width, days.length) : null;
  const overageOn = usage.overage.available && usage.overage.enabled;
  return (
    <div className="space-y-5">
      <div ref={ref} onMouseLeave={() => setHovered(null)} className="space-y-5">
        <div>
          <div className="mb-1 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h3 className="text-sm font-medium text-slate-700">Recipients so far this month</h3>
            <Legend
              items={[
                { label: 'Running total', swatch: 'h-0.5 w-4 bg-indigo-600' },
                { label: 'Quota', swatch: 'h-0 w-4 border-t-2 border-dashed border-slate-500' },
                ...(overageOn ? [{ label: 'Overage stop', swatch: 'h-0 w-4 border-t-2 border-dotted border-amber-500' }] : []),
              ]}
            />
          </div>
          <div style={{ height: RUNNING_HEIGHT }}>
            {geometry && <RunningTotalPanel days={days} usage={usage} geometry={geometry} hovered={hovered} onHover={setHovered} />}
          </div>
        </div>
        <div>
          <div className="mb-1 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h3 className="text-sm font-medium text-slate-700">Messages sent each day, by outcome</h3>
            <Legend items={OUTCOMES.map(({ label, swatch }) => ({ label, swatch: `size-2.5 rounded-sm ${swatch}` }))} />
          </div>
          <div style={{ height: BARS_HEIGHT }}>{geometry && <OutcomeBarsPanel days={days} geometry={geometry} hovered={hovered} onHover={setHovered} />}</div>
        </div>
      </div>
      <DayReadout day={days[hovered ?? todayIndex]!} />
    </div>
  );
}

/** Every day so far, as numbers: for reading exactly, and for screen readers. */
function DaysTable({ days }: { days: ChartDay[] }) {
  const sofar = days.filter((day) => day.runningTotal !== null);
  return (
    <details className="group mt-4 text-sm">
      <summary className="cursor-pointer font-medium text-indigo-700 hover:text-indigo-600">Show the numbers by day</summary>
      <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="This month by day">
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              {['Day (UTC)', 'Recipients', 'Sent', 'Delivered', 'Bounced', 'Complained'].map((column, index) => (
                <th key={column} scope="col" className={cx('px-4 py-2', index === 0 ? 'text-left' : 'text-right')}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {sofar.map((day) => (
              <tr key={day.day} className={day.isToday ? 'bg-indigo-50/40' : undefined}>
                <th scope="row" className="px-4 py-1.5 text-left font-normal text-slate-700">
                  {formatDay(day.day)}
                  {day.isToday ? ' (today)' : ''}
                </th>
                {[day.recipients, day.sent, day.delivered, day.bounced, day.complained].map((value, index) => (
                  <td key={index} className="px-4 py-1.5 text-right text-slate-900">
                    {formatCount(value)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The month so far by UTC day: the running total against the quota above, each day's outcomes below. */
export function UsageChart({ usage }: { usage: Usage }) {
  const days = useMemo(() => monthDays(usage.period, usage.days, usage.today.day), [usage.period, usage.days, usage.today.day]);
  const active = hasActivity(usage.days);
  return (
    <SectionCard
      id="month-chart"
      title={`${monthFormat.format(new Date(usage.period.start))} by day`}
      description={active ? 'Days are UTC. Point at a day for its numbers.' : undefined}
      testId="usage-chart"
    >
      {active ? (
        <>
          <ChartPanels days={days} usage={usage} />
          <DaysTable days={days} />
        </>
      ) : (
        <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center" data-testid="usage-chart-empty">
          <div className="flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
            <ChartColumnStackedIcon className="size-5" />
          </div>
          <p className="mt-3 text-sm font-semibold text-slate-900">No live email this month yet</p>
          <p className="mt-1 max-w-md text-sm text-slate-500">
            Each day you send, the chart shows the messages sent and what became of them (delivered, bounced, complained), and the running total against your
            monthly quota of {formatCount(usage.month.quota)}. Test-mode email is not counted.
          </p>
        </div>
      )}
    </SectionCard>
  );
}
