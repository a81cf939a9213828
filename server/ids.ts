import { getRandomValues } from 'node:crypto';
import { V7Generator } from 'uuidv7';

/** Random words from the system's generator, fetched a few hundred at a time rather than three per id. */
class PooledRandom {
  private readonly pool = new Uint32Array(768);
  private cursor = this.pool.length;
  nextUint32(): number {
    if (this.cursor === this.pool.length) {
      getRandomValues(this.pool);
      this.cursor = 0;
    }
    return this.pool[this.cursor++]!;
  }
}

const generator = new V7Generator(new PooledRandom());
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Time-ordered ids: a page cursor is the last id, and "newest first" is ORDER BY id DESC. */
export function newId(): string {
  const b = generator.generate().bytes;
  return (
    HEX[b[0]!]! + HEX[b[1]!]! + HEX[b[2]!]! + HEX[b[3]!]! + '-' + HEX[b[4]!]! + HEX[b[5]!]! + '-' + HEX[b[6]!]! + HEX[b[7]!]! + '-' +
    HEX[b[8]!]! + HEX[b[9]!]! + '-' + HEX[b[10]!]! + HEX[b[11]!]! + HEX[b[12]!]! + HEX[b[13]!]! + HEX[b[14]!]! + HEX[b[15]!]!
  );
}

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
