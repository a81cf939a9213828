import { and, eq, gt, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { emails, organizations, usageCounters, usageDays } from '@/db/schema';
import { column, columnNames, tableName } from '@/db/raw-sql';
import type { Deps } from '../../deps';
import { DAY_MS, HOUR_MS } from '../shared/time';
import { utcDay } from './calendar';
import { poolEndsAt, type StandingColumns } from './ceiling';

/** How sending standing is judged; docs/limits.md states the same numbers. */
export const STANDING = {
  evaluateEveryMs: HOUR_MS,
  rateWindowDays: 7,
  /** Rates are judged only over at least this many sent messages. */
  minSends: 200,
  maxBounceRate: 0.04,
  maxComplaintRate: 0.0008,
  poolExitDelivered: 500,
  busiestWindowDays: 14,
} as const;

export interface Standing extends StandingColumns {
  standingEvaluatedAt: Date | null;
}

interface Rates {
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
}

const percent = (rate: number) => `${(rate * 100).toFixed(2).replace(/\.?0+$/, '')} %`;

/** Why the ceiling is halved, or null: over the window's sent messages, a bounce or complaint rate above its threshold. */
export function elevatedReason(rates: Rates): string | null {
  if (rates.sent < STANDING.minSends) return null;
  const bounce = rates.bounced / rates.sent;
  const complaint = rates.complained / rates.sent;
  if (bounce > STANDING.maxBounceRate) return `the bounce rate is ${percent(bounce)} over the last 7 days (above ${percent(STANDING.maxBounceRate)})`;
  if (complaint > STANDING.maxComplaintRate) return `the complaint rate is ${percent(complaint)} over the last 7 days (above ${percent(STANDING.maxComplaintRate)})`;
  return null;
}

/** Leaves the pool by volume: about 500 delivered messages with rates at or below the thresholds. */
const leavesPoolByVolume = (rates: Rates) =>
  rates.delivered >= STANDING.poolExitDelivered && rates.bounced / rates.sent <= STANDING.maxBounceRate && rates.complained / rates.sent <= STANDING.maxComplaintRate;

/** The live messages since `since` that left, and what became of them: what every sending rate is judged over. */
export async function measureRates(deps: Pick<Deps, 'db'>, organizationId: string, since: Date): Promise<Rates> {
  // Messages, not recipients: a message that left counts once, whatever became of it.
  const [row] = await deps.db
    .select({
      sent: sql<number>`count(*) filter (where ${emails.status} in ('sent', 'delivered', 'bounced', 'complained'))::int`,
      delivered: sql<number>`count(*) filter (where ${emails.status} in ('delivered', 'complained'))::int`,
      bounced: sql<number>`count(*) filter (where ${emails.status} = 'bounced')::int`,
      complained: sql<number>`count(*) filter (where ${emails.status} = 'complained')::int`,
    })
    .from(emails)
    .where(and(eq(emails.organizationId, organizationId), eq(emails.mode, 'live'), gte(emails.createdAt, since)));
  return row ?? { sent: 0, delivered: 0, bounced: 0, complained: 0 };
}

/**
 * Copies the counter row's finished days (the day before the last rollover, and the row's day once
 * it is past) into usage_days. Their counts are final, so writing them again is harmless; the send
 * path never writes history, and a day rolls over at most once between two hourly evaluations.
 */
export async function archivePastDays(deps: Pick<Deps, 'db'>, organizationId: string, now: Date): Promise<void> {
  const counter = (key: 'organizationId' | 'day' | 'dayRecipients' | 'previousDay' | 'previousDayRecipients') => column(usageCounters, key, 'c');
  await deps.db.execute(sql`insert into ${tableName(usageDays)} (${columnNames(usageDays, ['organizationId', 'day', 'recipients'])})
    select ${counter('organizationId')}, d.day, d.recipients
    from ${tableName(usageCounters, 'c')},
      lateral (values (${counter('previousDay')}, ${counter('previousDayRecipients')}), (${counter('day')}, ${counter('dayRecipients')})) as d(day, recipients)
    where ${counter('organizationId')} = ${organizationId} and d.day is not null and d.day < ${utcDay(now)}::date
    on conflict (${columnNames(usageDays, ['organizationId', 'day'])}) do update set ${column(usageDays, 'recipients')} = excluded.${column(usageDays, 'recipients')}`);
}

async function busiestRecentDay(deps: Pick<Deps, 'db'>, organizationId: string, now: Date): Promise<number> {
  const [row] = await deps.db
    .select({ busiest: sql<number>`coalesce(max(${usageDays.recipients}), 0)::int` })
    .from(usageDays)
    .where(and(eq(usageDays.organizationId, organizationId), gte(usageDays.day, utcDay(new Date(now.getTime() - STANDING.busiestWindowDays * DAY_MS))), lt(usageDays.day, utcDay(now))));
  return row?.busiest ?? 0;
}

/**
 * The hourly evaluation, run by whichever comes first in an hour: a send or a usage read. One
 * caller claims it (the conditional update), the others go on with the standing as it was.
 * Returns the standing to use now.
 */
export async function refreshStanding(deps: Pick<Deps, 'db' | 'clock'>, organizationId: string, current: Standing): Promise<Standing> {
  const now = deps.clock.now();
  const evaluated = current.standingEvaluatedAt;
  // A clock moved back (TEST_CLOCK) makes a later evaluation stale too.
  if (evaluated && evaluated <= now && now.getTime() - evaluated.getTime() < STANDING.evaluateEveryMs) return current;
  const [claimed] = await deps.db
    .update(organizations)
    .set({ standingEvaluatedAt: now })
    .where(
      and(
        eq(organizations.id, organizationId),
        or(isNull(organizations.standingEvaluatedAt), lte(organizations.standingEvaluatedAt, new Date(now.getTime() - STANDING.evaluateEveryMs)), gt(organizations.standingEvaluatedAt, now)),
      ),
    )
    .returning({ plan: organizations.plan });
  if (!claimed) return current;
  const windowStart = new Date(now.getTime() - STANDING.rateWindowDays * DAY_MS);
  const [rates, busiest] = await Promise.all([
    measureRates(deps, organizationId, windowStart),
    archivePastDays(deps, organizationId, now).then(() => busiestRecentDay(deps, organizationId, now)),
  ]);
  const inPool = claimed.plan !== 'free' && current.poolExitedAt === null && now < poolEndsAt(current);
  const poolExitedAt = inPool && leavesPoolByVolume(rates) ? now : current.poolExitedAt;
  const next = { busiestRecentDay: busiest, elevatedReason: elevatedReason(rates), poolExitedAt };
  await deps.db.update(organizations).set(next).where(eq(organizations.id, organizationId));
  return { ...current, ...next, standingEvaluatedAt: now };
}

