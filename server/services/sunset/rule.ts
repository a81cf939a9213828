import { sql, type SQL } from 'drizzle-orm';

/** The range of an audience's `sunsetAfterMonths` (also a check constraint of the table). */
export const SUNSET_MONTHS_MIN = 1;
export const SUNSET_MONTHS_MAX = 36;
/** What a preview asks of an audience without a setting when it names no months (and what the dashboard offers first). */
export const SUNSET_MONTHS_DEFAULT = 12;

/**
 * When the member last showed a person is there, for a select from `audience_memberships m` joined
 * to `contacts c`: the latest of the contact's last human open and last human click (the engagement
 * summary: machine opens and scanner clicks never reach it, and it outlives the log's retention),
 * when it joined this audience, and its latest opt-in here or for the whole contact (a ledger entry
 * `subscribed` or `confirmed`). A contact that never opened nor clicked is counted from when it
 * joined, and one that opted in again from that opt-in.
 */
export const lastSignOfLife: SQL = sql`greatest(c.last_opened_at, c.last_clicked_at, m.created_at, (
  select max(e.created_at) from consent_entries e
  where e.organization_id = m.organization_id and e.contact_id = m.contact_id and e.action in ('subscribed', 'confirmed')
    and (e.audience_id is null or e.audience_id = m.audience_id)
))`;

/** A member who would get the audience's broadcasts but for a sunset: subscribed here and not unsubscribed from everything. */
export const receivingMember: SQL = sql`(m.subscribed and not c.unsubscribed)`;

/** The moment before which a last sign of life is too old for a setting of `months`, as of `now`. */
export const sunsetCutoff = (now: Date, months: number): SQL => sql`(${now.toISOString()}::timestamptz - make_interval(months => ${months}::int))`;

/** Whether the member's last sign of life is older than `months` as of `now`. */
export const silentFor = (now: Date, months: number): SQL => sql`(${lastSignOfLife} < ${sunsetCutoff(now, months)})`;

/** Whether the member is due for sunset under `months` as of `now`: receiving, and silent that long. */
export const dueForSunset = (now: Date, months: number): SQL => sql`(${receivingMember} and ${silentFor(now, months)})`;

/** The range of an audience's `sunsetGraceDays` (a check constraint of the table too), and what a setting without one gets. */
export const SUNSET_GRACE_DAYS_MIN = 1;
export const SUNSET_GRACE_DAYS_MAX = 90;
export const SUNSET_GRACE_DAYS_DEFAULT = 14;

/**
 * Whether the member's re-engagement email still stands as a warning: stored at or after its last
 * sign of life. A person's open or click of it (or anything later), or a new opt-in, ends the
 * warning: a member silent again later is warned again.
 */
export const warned: SQL = sql`(m.reengaged_at is not null and m.reengaged_at >= ${lastSignOfLife})`;

/** Due for sunset under `months`, and not warned yet: the run sends it the re-engagement email. */
export const dueForReengagement = (now: Date, months: number): SQL => sql`(${dueForSunset(now, months)} and not ${warned})`;

/** Due for sunset under `months`, warned, and `graceDays` have passed since the warning with no sign of life: the run sets it sunset. */
export const graceOver = (now: Date, months: number, graceDays: number): SQL =>
  sql`(${dueForSunset(now, months)} and ${warned} and m.reengaged_at <= ${now.toISOString()}::timestamptz - make_interval(days => ${graceDays}::int))`;
