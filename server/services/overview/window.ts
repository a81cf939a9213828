import { utcDay } from '../plans/calendar';
import { DAY_MS, HOUR_MS } from '../shared/time';

/** How many UTC days the overview shows: today and the six before it. */
export const OVERVIEW_DAYS = 7;

/**
 * How far before the window an id may have been made and its row still fall inside it: ids carry
 * real time and rows the clock's, which agree in production (ids are made just before the
 * transaction that stamps the row).
 */
const ID_SLACK_MS = HOUR_MS;

export interface DayWindow {
  /** The UTC days, oldest first ('YYYY-MM-DD'). */
  days: string[];
  /** The start of the oldest day. */
  since: Date;
  /** The start of the day after today. */
  until: Date;
  /**
   * The real time (epoch ms) no row of the window was made before: the earlier of the window's
   * start and the same span back from real time, less a slack. With the system clock both are
   * the same moment; with a test clock set elsewhere, rows made during the last days of real time
   * still fall above it.
   */
  madeSince: number;
}

/** The last `count` UTC days up to and including the day of `now`. */
export function dayWindow(now: Date, count = OVERVIEW_DAYS, realNow = Date.now()): DayWindow {
  const todayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const since = new Date(todayStart - (count - 1) * DAY_MS);
  const days = Array.from({ length: count }, (_, index) => utcDay(new Date(since.getTime() + index * DAY_MS)));
  const span = now.getTime() - since.getTime();
  return { days, since, until: new Date(todayStart + DAY_MS), madeSince: Math.min(since.getTime(), realNow - span) - ID_SLACK_MS };
}
