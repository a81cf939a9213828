const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** "21 Nov 2026", in UTC so that the server and the browser agree. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** "21 Nov 2026, 10:00 UTC", for tooltips. */
export const formatDateTime = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

const preciseFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** "21 Nov 2026, 10:00:03 UTC": events seconds apart stay apart. */
export const formatPreciseDateTime = (iso: string) => `${preciseFormat.format(new Date(iso))} UTC`;

const BYTE_UNITS = ['KB', 'MB', 'GB'];

/** "512 bytes", "1.4 KB", "12 MB" (powers of 1024, as mail clients show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${BYTE_UNITS[unit]}`;
}

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

const countFormat = new Intl.NumberFormat('en');

/** "2,500": counts in the dashboard's English, grouped by thousands. */
export const formatCount = (count: number) => countFormat.format(count);

/** "1 contact", "2,500 contacts". */
export const countOf = (count: number, singular: string, plural = `${singular}s`) => `${formatCount(count)} ${count === 1 ? singular : plural}`;

const eurFormat = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "€13.50", "€1,350.00": an amount in euro cents, always with the cents. */
export const formatEur = (cents: number) => eurFormat.format(cents / 100);

const compactFormat = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** "950", "2.5K", "1M": a chart axis's labels, where a full count would crowd it. */
export const formatCompact = (count: number) => compactFormat.format(count);

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "26 Nov": a UTC day ('YYYY-MM-DD') within a month already named. */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
