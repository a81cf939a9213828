const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** "21 Nov 2026", in UTC so that the server and the browser agree. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** "21 Nov 2026, 10:00 UTC", for tooltips. */
export const formatDateTime = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

const relativeFormat = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 2 minutes", "3 hours ago", "just now" (within a minute either way). */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const delta = new Date(iso).getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms) return relativeFormat.format(Math.round(delta / ms), unit);
  }
  return delta > 5_000 ? 'in less than a minute' : 'just now';
}
