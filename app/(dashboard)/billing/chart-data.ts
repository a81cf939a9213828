import type { UsageDay } from './types';

/** One day of the month as the chart draws it; days after today have no running total yet. */
export interface ChartDay extends UsageDay {
  /** Day of the month, 1 to 31. */
  date: number;
  /** Recipients from the first of the month to the end of this day; null for days to come. */
  runningTotal: number | null;
  /** Sent, with no delivery, bounce or complaint recorded yet. */
  awaiting: number;
  isToday: boolean;
}

const DAY_MS = 86_400_000;
const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every day of the billing month (UTC), the days with no sending as zeros. */
export function monthDays(period: { start: string; end: string }, days: UsageDay[], today: string): ChartDay[] {
  const byDay = new Map(days.map((day) => [day.day, day]));
  const result: ChartDay[] = [];
  let total = 0;
  for (let ms = Date.parse(period.start); ms < Date.parse(period.end); ms += DAY_MS) {
    const day = dayString(ms);
    const found = byDay.get(day) ?? { day, recipients: 0, sent: 0, delivered: 0, bounced: 0, complained: 0 };
    total += found.recipients;
    result.push({
      ...found,
      date: new Date(ms).getUTCDate(),
      runningTotal: day <= today ? total : null,
      // Complaints are counted among the delivered (a complaint follows a delivery).
      awaiting: Math.max(0, found.sent - found.delivered - found.bounced),
      isToday: day === today,
    });
  }
  return result;
}

/** Whether the month has anything to draw: any recipient accepted or message sent. */
export const hasActivity = (days: UsageDay[]) => days.some((day) => day.recipients > 0 || day.sent > 0);

/**
 * An axis from zero to a round number at or above `max`, in `count` or fewer steps of 1, 2 or 5
 * times a power of ten (never below 1: these are counts).
 */
export function niceAxis(max: number, count = 4): { top: number; ticks: number[] } {
  const raw = Math.max(max, 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((multiple) => multiple * power).find((candidate) => candidate >= raw)!);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return { top, ticks };
}
