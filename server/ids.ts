import { uuidv7 } from 'uuidv7';

/** Time-ordered ids: a page cursor is the last id, and "newest first" is ORDER BY id DESC. */
export const newId = (): string => uuidv7();

/**
 * The smallest id made at a moment (epoch ms): a UUIDv7 carries its real time in its first 48
 * bits, so every id made at or after the moment sorts at or above it. Real time, not the
 * injectable clock: `newId` reads the system time.
 */
export function firstIdAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
