import { describe, expect, it } from 'vitest';
import { monthDays, niceAxis, hasActivity } from '@/app/(dashboard)/billing/chart-data';
import { formatEur } from '@/app/lib/format';

const period = { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' };
const day = (date: string, values: Partial<{ recipients: number; sent: number; delivered: number; bounced: number; complained: number }>) => ({
  day: date,
  recipients: 0,
  sent: 0,
  delivered: 0,
  bounced: 0,
  complained: 0,
  ...values,
});

describe('the billing chart: the month by day', () => {
  it('has every day of the UTC month, zeros where nothing was sent, and a running total up to today only', () => {
    const days = monthDays(period, [day('2026-11-02', { recipients: 5 }), day('2026-11-04', { recipients: 3 })], '2026-11-04');
    expect(days).toHaveLength(30);
    expect(days[0]).toMatchObject({ day: '2026-11-01', date: 1, recipients: 0, runningTotal: 0, isToday: false });
    expect(days.map((entry) => entry.runningTotal).slice(0, 6)).toEqual([0, 5, 5, 8, null, null]);
    expect(days[3]!.isToday).toBe(true);
    expect(days[29]!.day).toBe('2026-11-30');
  });

  it('counts as awaiting what was sent with no outcome yet (a complaint is among the delivered)', () => {
    const [first] = monthDays(period, [day('2026-11-01', { sent: 10, delivered: 6, bounced: 1, complained: 2 })], '2026-11-01');
    expect(first!.awaiting).toBe(3);
  });

  it('has nothing to draw for a new organization, something once one recipient counts', () => {
    expect(hasActivity([])).toBe(false);
    expect(hasActivity([day('2026-11-01', {})])).toBe(false);
    expect(hasActivity([day('2026-11-01', { recipients: 1 })])).toBe(true);
  });

  it('rounds an axis up to whole, round steps', () => {
    expect(niceAxis(3_000, 3)).toEqual({ top: 3_000, ticks: [0, 1_000, 2_000, 3_000] });
    expect(niceAxis(14, 4)).toEqual({ top: 15, ticks: [0, 5, 10, 15] });
    expect(niceAxis(3, 4)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(niceAxis(0, 4)).toEqual({ top: 1, ticks: [0, 1] });
  });
});

describe('money on the billing page', () => {
  it('is euros with the cents and thousands separators', () => {
    expect(formatEur(0)).toBe('€0.00');
    expect(formatEur(45)).toBe('€0.45');
    expect(formatEur(43_000)).toBe('€430.00');
    expect(formatEur(123_456_789)).toBe('€1,234,567.89');
  });
});
