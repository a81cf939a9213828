import type { DelayConfig } from '../step-configs';
import { durationSeconds } from '../duration';
import type { RunContact } from './evaluate';

const DAY_MS = 86_400_000;

/** The zone's offset from UTC at an instant, in minutes (Europe/Paris in summer: 120). */
function offsetMinutes(timeZone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')!.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** The calendar day it is in the zone at an instant, as UTC midnight of that day. */
function localDay(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return Date.parse(`${parts}T00:00:00Z`);
}

const isTimeZone = (name: unknown): name is string => {
  if (typeof name !== 'string' || name === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** The next instant, after `now`, when it is `hh:mm` in the zone (a day that skips it, a spring-forward hour, takes the instant the clock shows it by offset). */
export function nextTimeOfDay(now: Date, timeOfDay: string, timeZone: string): Date {
  const [hours, minutes] = timeOfDay.split(':').map(Number) as [number, number];
  const sinceMidnight = (hours * 60 + minutes) * 60_000;
  for (let day = localDay(timeZone, now); ; day += DAY_MS) {
    const wallClock = day + sinceMidnight;
    // The offset at the wall-clock moment read as UTC, then again at the instant that gives: right across a change of offset.
    const first = wallClock - offsetMinutes(timeZone, new Date(wallClock)) * 60_000;
    const instant = wallClock - offsetMinutes(timeZone, new Date(first)) * 60_000;
    if (instant > now.getTime()) return new Date(instant);
  }
}

/** When a delay step that starts now ends for this contact: after its duration, or at the next time of day in the contact's time zone. */
export function delayEnd(config: DelayConfig, now: Date, contact: RunContact): Date {
  if (config.duration !== undefined) return new Date(now.getTime() + durationSeconds(config.duration)! * 1_000);
  const own = config.time_zone_property ? contact.properties[config.time_zone_property] : undefined;
  const timeZone = isTimeZone(own) ? own : (config.time_zone ?? 'UTC');
  return nextTimeOfDay(now, config.time_of_day!, timeZone);
}
