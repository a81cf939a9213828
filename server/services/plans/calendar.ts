import { DAY_MS } from '../shared/time';

/** The UTC calendar the limits count in: days for the ceiling, months for the quota and billing. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);
export const utcMonth = (at: Date): string => `${at.toISOString().slice(0, 7)}-01`;
/** Both at once, from one ISO string: the send path asks for both on every send. */
export function calendarOf(at: Date): { day: string; month: string } {
  const iso = at.toISOString();
  return { day: iso.slice(0, 10), month: `${iso.slice(0, 7)}-01` };
}
export const startOfNextUtcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS + DAY_MS);
export const startOfUtcMonth = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
export const startOfNextUtcMonth = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
/** A date column's value ('YYYY-MM-DD') as the instant it starts. */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
