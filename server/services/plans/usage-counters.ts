import { eq } from 'drizzle-orm';
import { usageCounters } from '@/db/schema';
import type { Deps } from '../../deps';
import { NO_USAGE, type UsageCounters } from './sending-limits';

/** The organization's counters as stored now: what a send re-reads when another one took the room it counted on. */
export async function readUsageCounters(deps: Pick<Deps, 'db'>, organizationId: string): Promise<UsageCounters | null> {
  const [row] = await deps.db
    .select({
      day: usageCounters.day,
      dayRecipients: usageCounters.dayRecipients,
      month: usageCounters.month,
      monthRecipients: usageCounters.monthRecipients,
      listRecipients: usageCounters.listRecipients,
      overageNotifiedMonth: usageCounters.overageNotifiedMonth,
    })
    .from(usageCounters)
    .where(eq(usageCounters.organizationId, organizationId));
  return row ?? null;
}

/** The organization's first counter row, all zero: what the reservation's plain UPDATE moves from then on. */
export async function createUsageCounters(deps: Pick<Deps, 'db'>, organizationId: string, period: { day: string; month: string }): Promise<UsageCounters> {
  await deps.db.insert(usageCounters).values({ organizationId, day: period.day, month: period.month }).onConflictDoNothing();
  return (await readUsageCounters(deps, organizationId)) ?? NO_USAGE;
}
