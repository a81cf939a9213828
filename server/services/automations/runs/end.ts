import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationRuns } from '@/db/schema';
import type { Deps } from '../../../deps';
import { logRunEvents } from './events';

/** Why an automation's runs are ended: `stop` (POST /automations/{id}/stop) or its deletion. */
export type RunEnding = 'stopped' | 'deleted';

/**
 * Ends every run of the automation still under way, in the transaction that stops or deletes it,
 * and answers how many it ended: they are `cancelled`, with the reason, and no longer due. A run a
 * worker is taking a step of holds its row: this waits for that step's transaction, so a step is
 * either done before the stop or not at all. Disabling by PATCH does not come here: runs under way finish.
 */
export async function endRunsOf(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, automation: { id: string }, why: RunEnding): Promise<number> {
  const now = deps.clock.now();
  const ended = await tx
    .update(automationRuns)
    .set({ status: 'cancelled', endedReason: why, dueAt: null, waitingFor: null, completedAt: now, updatedAt: now })
    .where(and(eq(automationRuns.automationId, automation.id), eq(automationRuns.status, 'running')))
    .returning();
  await logRunEvents(tx, deps, 'cancelled', ended, { reason: why });
  return ended.length;
}
