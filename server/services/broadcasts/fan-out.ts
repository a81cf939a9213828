import { and, asc, eq, inArray, lte, type SQL } from 'drizzle-orm';
import { broadcasts } from '@/db/schema';
import type { Deps } from '../../deps';
import { claimable, claimedBy } from '../shared/claims/lease';
import { fanOutChunk, failBroadcast, type ChunkOutcome } from './chunk';
import { resumeHeld } from './holds';
import { sendRefusal, startSending } from './start';
import type { BroadcastRow } from './view';

/** How long one run works on a broadcast before handing it back (a sweep pass, an Inngest step). */
export const RUN_BUDGET_MS = 5_000;

/** What a run did: a chunk outcome, `waiting` (still held or not due), or `skipped` (not claimable). */
export type RunOutcome = ChunkOutcome | 'waiting' | 'skipped';

/** A broadcast with work due at `now`: what the sweep claims, and /metrics counts as due work. */
export const broadcastIsDue = (now: Date | SQL) => and(inArray(broadcasts.status, ['scheduled', 'sending', 'held']), lte(broadcasts.nextAttemptAt, now))!;

const due = (deps: Pick<Deps, 'clock' | 'claims'>) => and(broadcastIsDue(deps.clock.now()), claimable(broadcasts, deps.claims.claimant));

/**
 * Claims due broadcasts through the one claim-and-lease mechanism: a scheduled one whose time has
 * come, a sending one, a held one whose limit has reset. One worker holds a broadcast at a time,
 * and one that died is taken over when it is seen gone or its lease runs out.
 */
async function claim(deps: Deps, where: { id: string } | { limit: number }): Promise<BroadcastRow[]> {
  const chosen =
    'id' in where
      ? and(eq(broadcasts.id, where.id), due(deps))
      : inArray(
          broadcasts.id,
          deps.db.select({ id: broadcasts.id }).from(broadcasts).where(due(deps)).orderBy(asc(broadcasts.nextAttemptAt)).limit(where.limit).for('update', { skipLocked: true }),
        );
  const rows = await deps.db.update(broadcasts).set(claimedBy(deps.claims.claimant)).where(chosen).returning();
  deps.claims.hold(
    broadcasts,
    rows.map((row) => row.id),
  );
  return rows;
}

/** A scheduled broadcast whose time has come starts (or fails, when it can no longer be sent); a held one whose limit reset resumes. */
async function becomeSending(deps: Deps, id: string): Promise<'sending' | 'failed' | 'waiting'> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(broadcasts).where(eq(broadcasts.id, id)).for('update');
    if (!row || row.claimedBy !== deps.claims.id) return 'waiting';
    if (row.status === 'sending') return 'sending';
    if (row.status === 'held') return (await resumeHeld(tx, deps, row, { force: false })) ? 'sending' : 'waiting';
    if (row.status !== 'scheduled') return 'waiting';
    const refusal = await sendRefusal(tx, deps, row);
    if (refusal) {
      await failBroadcast(tx, deps, row, refusal.message);
      return 'failed';
    }
    await startSending(tx, deps, row);
    return 'sending';
  });
}

/** Works on one claimed broadcast for up to RUN_BUDGET_MS, chunk after chunk, then hands it back. */
async function drive(deps: Deps, id: string): Promise<RunOutcome> {
  const started = performance.now();
  try {
    const state = await becomeSending(deps, id);
    if (state !== 'sending') return state;
    while (!deps.claims.stopping && performance.now() - started < RUN_BUDGET_MS) {
      const chunk = await fanOutChunk(deps, id);
      if (chunk.emailIds.length > 0) deps.jobs.wake('email-dispatch', chunk.emailIds);
      if (chunk.deliveriesQueued) deps.jobs.wake('webhook-delivery', []);
      if (chunk.systemEmailId) deps.jobs.wake('system-mail', chunk.systemEmailId);
      if (chunk.outcome !== 'more') return chunk.outcome;
    }
    return 'more';
  } finally {
    await deps.claims.release(broadcasts, [id]);
  }
}

/** Runs one broadcast if it is due and nobody else holds it (a wake-up, an Inngest step). */
export async function runBroadcast(deps: Deps, id: string): Promise<RunOutcome> {
  const [row] = await claim(deps, { id });
  return row ? drive(deps, row.id) : 'skipped';
}

export interface BroadcastSweepReport {
  handled: number;
  outcomes: Partial<Record<RunOutcome, number>>;
}

/** The embedded runner's sweep: every due broadcast, one after another, each for a run's budget. */
export async function sweepBroadcasts(deps: Deps): Promise<BroadcastSweepReport> {
  if (deps.claims.stopping) return { handled: 0, outcomes: {} };
  const rows = await claim(deps, { limit: 10 });
  const outcomes: Partial<Record<RunOutcome, number>> = {};
  let started = 0;
  try {
    for (const row of rows) {
      if (deps.claims.stopping) break;
      started += 1;
      const outcome = await drive(deps, row.id);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  } finally {
    await deps.claims.release(
      broadcasts,
      rows.slice(started).map((row) => row.id),
    );
  }
  return { handled: started, outcomes };
}

/** When a broadcast is next due, for a durable function to sleep until; null when it is due now or nothing is pending. */
export async function broadcastDueAt(deps: Pick<Deps, 'db' | 'clock'>, id: string): Promise<string | null> {
  const [row] = await deps.db.select({ nextAttemptAt: broadcasts.nextAttemptAt }).from(broadcasts).where(eq(broadcasts.id, id));
  return row?.nextAttemptAt && row.nextAttemptAt > deps.clock.now() ? row.nextAttemptAt.toISOString() : null;
}
