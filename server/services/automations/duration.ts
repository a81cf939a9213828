// Durations as Resend writes them in a definition: "30 minutes", "1 hour", "3 days", "1 week"
// (their examples), and the short forms "30m", "12h", "2d" that Inngest's and ms's users write.

const UNIT_SECONDS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3_600, hr: 3_600, hrs: 3_600, hour: 3_600, hours: 3_600,
  d: 86_400, day: 86_400, days: 86_400,
  w: 604_800, wk: 604_800, wks: 604_800, week: 604_800, weeks: 604_800,
};

const DURATION = /^\s*(\d{1,6})\s*([a-z]+)\s*$/;

/** Seconds a duration stands for, or null when it is not one ("soon", "1.5 days", "3 fortnights"). */
export function durationSeconds(text: string): number | null {
  const match = DURATION.exec(text.toLowerCase());
  if (!match) return null;
  const unit = UNIT_SECONDS[match[2]!];
  return unit === undefined ? null : Number(match[1]) * unit;
}

export const MINUTE_S = 60;
export const DAY_S = 86_400;
