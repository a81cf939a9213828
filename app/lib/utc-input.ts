/**
 * A `datetime-local` input holds no zone; the dashboard shows times in UTC, so the input is read
 * and written in UTC too ("2026-11-21T10:00" is 10:00 UTC).
 */
export const toUtcInput = (iso: string) => new Date(iso).toISOString().slice(0, 16);

export function fromUtcInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
