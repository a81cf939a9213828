import { and, asc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { contactImports } from '@/db/schema';
import type { Deps } from '../../deps';
import { claimable, claimedBy } from '../shared/claims/lease';
import { HOUR_MS } from '../shared/time';
import { importBatch, type BatchOutcome, type ReadingCache } from './batch';

/** How long one run works on an import before handing it back (a sweep pass, an Inngest step). */
export const IMPORT_RUN_BUDGET_MS = 5_000;

/** What a run did: its last batch's outcome, or `skipped` (not claimable: another worker has it, or nothing is left). */
export type ImportRunOutcome = BatchOutcome | 'skipped';

const isPending = inArray(contactImports.status, ['queued', 'in_progress']);
const due = (deps: Pick<Deps, 'claims'>) => and(isPending, claimable(contactImports, deps.claims.claimant));

/** Claims pending imports for this worker through the one claim-and-lease mechanism, oldest first. */
async function claim(deps: Deps, where: { id: string } | { limit: number }): Promise<string[]> {
  const chosen =
    'id' in where
      ? and(eq(contactImports.id, where.id), due(deps))
      : inArray(
          contactImports.id,
          deps.db.select({ id: contactImports.id }).from(contactImports).where(due(deps)).orderBy(asc(contactImports.createdAt)).limit(where.limit).for('update', { skipLocked: true }),
        );
  const rows = await deps.db.update(contactImports).set(claimedBy(deps.claims.claimant)).where(chosen).returning({ id: contactImports.id });
  const ids = rows.map((row) => row.id);
  deps.claims.hold(contactImports, ids);
  return ids;
}

/** Works on one claimed import for up to IMPORT_RUN_BUDGET_MS, batch after batch, then hands it back. */
async function drive(deps: Deps, id: string, budgetMs: number): Promise<BatchOutcome> {
  const started = performance.now();
  const cache: ReadingCache = {};
  try {
    let outcome: BatchOutcome = 'more';
    while (outcome === 'more' && !deps.claims.stopping && performance.now() - started < budgetMs) {
      outcome = await importBatch(deps, id, cache);
      // Requests that arrived meanwhile get their turn before the next batch: on PGlite (one
      // connection) a run chained without a pause held the database for its whole budget.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return outcome;
  } finally {
    await deps.claims.release(contactImports, [id]);
  }
}

/** Runs one import if it is pending and nobody else holds it (a wake-up, an Inngest step). */
export async function runContactImport(deps: Deps, id: string, budgetMs = IMPORT_RUN_BUDGET_MS): Promise<ImportRunOutcome> {
  const [claimed] = await claim(deps, { id });
  return claimed ? drive(deps, claimed, budgetMs) : 'skipped';
}

export interface ImportSweepReport {
  handled: number;
  outcomes: Partial<Record<ImportRunOutcome, number>>;
  /** Uploads that died before their file was whole, cleared. */
  abandoned: number;
}

/**
 * A `receiving` import older than this was left by an upload that never finished (the process
 * died, or the client went away unseen): far past any request's time to arrive.
 */
export const ABANDONED_AFTER_MS = HOUR_MS;

/** The embedded runner's sweep: uploads left behind cleared, then every pending import, one after another, each for a run's budget. */
export async function sweepContactImports(deps: Deps): Promise<ImportSweepReport> {
  if (deps.claims.stopping) return { handled: 0, outcomes: {}, abandoned: 0 };
  const abandonedBefore = new Date(deps.clock.now().getTime() - Math.max(ABANDONED_AFTER_MS, 2 * deps.config.edge.requestTimeoutMs));
  const abandoned = await deps.db
    .delete(contactImports)
    .where(and(eq(contactImports.status, 'receiving'), lt(contactImports.createdAt, abandonedBefore)))
    .returning({ id: contactImports.id });
  const ids = await claim(deps, { limit: 5 });
  const outcomes: Partial<Record<ImportRunOutcome, number>> = {};
  let started = 0;
  try {
    for (const id of ids) {
      if (deps.claims.stopping) break;
      started += 1;
      const outcome = await drive(deps, id, IMPORT_RUN_BUDGET_MS);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  } finally {
    await deps.claims.release(contactImports, ids.slice(started));
  }
  return { handled: started, outcomes, abandoned: abandoned.length };
}

/** Imports queued or under way, whoever holds them: the backlog /metrics shows (due since they were made). */
export const contactImportIsDue = (): SQL => sql`${contactImports.status} in ('queued', 'in_progress')`;
