import { eq } from 'drizzle-orm';
import { usageCounters } from '@/db/schema';
import type { Deps } from '../../deps';
import { NO_USAGE, type UsageCounters } from './sending-limits';

/** The organization's counters as stored now: what a send re-reads when another one took the room it counted on. */
export async function readUsageCounters(deps: Pick<Deps, 'db'>, organizationId: string): Promise<UsageCounters> {
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
  return row ?? NO_USAGE;
}
