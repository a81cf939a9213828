import type { ActivityDay } from './types';

/** The bars of a day, left to right; opens stack the machines' on the people's. */
export const SERIES = [
  { key: 'sent', label: 'Sent', fill: 'fill-indigo-500', swatch: 'bg-indigo-500' },
  { key: 'delivered', label: 'Delivered', fill: 'fill-emerald-500', swatch: 'bg-emerald-500' },
  { key: 'bounced', label: 'Bounced', fill: 'fill-red-500', swatch: 'bg-red-500' },
  { key: 'complained', label: 'Complained', fill: 'fill-orange-400', swatch: 'bg-orange-400' },
  { key: 'opened', label: 'Opened', fill: 'fill-sky-500', swatch: 'bg-sky-500' },
] as const;

export const MACHINE_OPENS = { label: 'Opened by a machine', fill: 'fill-sky-200', swatch: 'bg-sky-200' } as const;

export type SeriesKey = (typeof SERIES)[number]['key'];

/** The tallest bar of the week: opens count with the machines' on top. */
export const tallest = (days: ActivityDay[]) => Math.max(0, ...days.flatMap((day) => [day.sent, day.delivered, day.bounced, day.complained, day.opened + day.machineOpened]));

export const totals = (days: ActivityDay[]) =>
  days.reduce(
    (sum, day) => ({
      sent: sum.sent + day.sent,
      delivered: sum.delivered + day.delivered,
      bounced: sum.bounced + day.bounced,
      complained: sum.complained + day.complained,
      opened: sum.opened + day.opened,
      machineOpened: sum.machineOpened + day.machineOpened,
    }),
    { sent: 0, delivered: 0, bounced: 0, complained: 0, opened: 0, machineOpened: 0 },
  );

export const hasActivity = (days: ActivityDay[]) => tallest(days) > 0;
