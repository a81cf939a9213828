import type { Deps } from '../deps';
import { AppError, validationError } from '../errors';
import { advanceTestClock, readTestClockOffset, SharedTestClock, setTestClockTo } from '../shared-test-clock';

/** The operator's commands that move the shared test clock (docs/test-clock.md). */
export const CLOCK_COMMANDS = ['clock:show', 'clock:set', 'clock:advance'] as const;
export type ClockCommand = (typeof CLOCK_COMMANDS)[number];

export const CLOCK_USAGE = `  clock:show                     (TEST_CLOCK=on only: the shared test time)
  clock:set      --at ISO        (TEST_CLOCK=on only: move every process's time to ISO)
  clock:advance  --by 1d|6h|30m|90s|500ms   (TEST_CLOCK=on only; negative goes back)`;

export const isClockCommand = (command: string): command is ClockCommand => (CLOCK_COMMANDS as readonly string[]).includes(command);

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A step beyond a century is a typo, and would leave the range of a JavaScript date soon after. */
const MAX_STEP_MS = 36_600 * UNIT_MS.d;
const DURATION = /^([+-]?)(\d{1,16})(ms|s|m|h|d)$/;

/** `1d`, `6h`, `30m`, `90s`, `500ms`, `-1h` as milliseconds; `m` is minutes (a month is clock:set's business). */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (!match) {
    throw validationError(`--by must be a whole number with a unit ms, s, m (minutes), h or d, such as 1d, 6h, 30m, 90s or -1h (got "${text}")`);
  }
  const [, sign, amount, unit] = match;
  const ms = (sign === '-' ? -1 : 1) * Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  if (ms === 0) throw validationError('--by must not be zero');
  if (Math.abs(ms) > MAX_STEP_MS) throw validationError(`--by must be at most ${MAX_STEP_MS / UNIT_MS.d}d either way (got "${text}")`);
  return ms;
}

// A date alone is midnight UTC; a time needs its zone, or it would mean each machine's local time.
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A real calendar day and hour: JavaScript would read 2026-02-30 as 2 March and 24:00 as the next day. */
function isCalendarTime(match: RegExpExecArray): boolean {
  const [year, month, day, hour] = match.slice(1, 5).map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && hour! < 24;
}

function parseAt(value: string | true | undefined): Date {
  if (typeof value !== 'string' || value.trim() === '') throw validationError('--at is required (an ISO 8601 time, such as 2026-12-01T00:00:00Z)');
  const match = ISO_TIME.exec(value);
  const at = match && isCalendarTime(match) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw validationError(`--at must be an ISO 8601 date, or a time with its zone, such as 2026-12-01 or 2026-12-01T09:30:00Z (got "${value}")`);
  }
  return at;
}

/**
 * clock:show, clock:set and clock:advance: each answers the shared time as this process now sees
 * it. Refused unless this process runs with TEST_CLOCK=on: a production service's time must not
 * be movable by a command.
 */
export async function runClockCommand(deps: Deps, command: ClockCommand, args: Record<string, string | true>): Promise<{ now: string; offsetMs: number }> {
  if (!deps.config.testClock) {
    throw new AppError(
      'FORBIDDEN',
      `${command} needs TEST_CLOCK=on (tests only): set it for the CLI, or for the running server when the CLI goes through it (PGlite)`,
    );
  }
  let offsetMs: number;
  switch (command) {
    case 'clock:show':
      offsetMs = await readTestClockOffset(deps.db);
      break;
    case 'clock:set':
      offsetMs = await setTestClockTo(deps.db, parseAt(args.at));
      break;
    case 'clock:advance': {
      const by = args.by;
      if (typeof by !== 'string') throw validationError('--by is required (such as 1d, 6h, 30m, 90s or -1h)');
      offsetMs = await advanceTestClock(deps.db, parseDuration(by));
      break;
    }
  }
  // The process that moved the clock sees it at once; the others within a poll.
  if (deps.clock instanceof SharedTestClock) deps.clock.adopt(offsetMs);
  return { now: new Date(Date.now() + offsetMs).toISOString(), offsetMs };
}
