import { eq, sql, type SQL } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { audiences } from '@/db/schema';
import type { Deps } from '../../deps';
import { dueForSunset, silentFor } from './rule';
import { logConsentChanges } from '../consent/events';
import { declareConsentSource } from '../consent/source';
import type { Db } from '@/db/client';

/** Memberships moved per statement: a large audience is many short transactions, never one long one. */
export const SUNSET_BATCH = 1_000;

export interface SunsetRunResult {
  /** Audiences looked at: those with a setting, and those with sunset members left from one. */
  audiences: number;
  sunset: number;
  lifted: number;
}

/**
 * The daily sunset run (jobs/due-work.ts): in each audience with a setting, every receiving member
 * silent for its months (./rule.ts) is set sunset; a member sunset before and no longer due (the
 * setting was raised, or turned off) is lifted. The engagement and opt-in lifts happen at once,
 * in the database (migration `audience_sunset`); this run only catches up with the clock and the
 * setting. Each move is a consent-ledger entry, written by the trigger on `sunset_at` (via `sunset`).
 *
 * Idempotent, and safe beside a second run: each batch is one statement that locks the rows it
 * moves (skipping rows another run holds) and only moves rows still in the state it looked for.
 */
export async function runSunset(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>): Promise<SunsetRunResult> {
  // Audiences with sunset members come from the partial index of sunset members, not a scan of all memberships.
  const targets = await queryRows<{ id: string; months: number | null }>(
    deps.db,
    sql`select a.id, a.sunset_after_months as months from audiences a
      where a.sunset_after_months is not null
        or a.id in (select distinct m.audience_id from audience_memberships m where m.sunset_at is not null)
      order by a.id`,
  );
  let sunset = 0;
  let lifted = 0;
  for (const audience of targets) {
    const moved = await applySunset(deps, audience.id, audience.months);
    sunset += moved.sunset;
    lifted += moved.lifted;
  }
  return { audiences: targets.length, sunset, lifted };
}

/** The run for one audience (a changed setting wakes it): its setting applied now. A deleted audience moves nothing. */
export async function sunsetAudience(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, audienceId: string): Promise<{ sunset: number; lifted: number }> {
  const [audience] = await deps.db.select({ months: audiences.sunsetAfterMonths }).from(audiences).where(eq(audiences.id, audienceId));
  return audience ? applySunset(deps, audienceId, audience.months) : { sunset: 0, lifted: 0 };
}

async function applySunset(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, audienceId: string, months: number | null): Promise<{ sunset: number; lifted: number }> {
  const now = deps.clock.now();
  // Off: every sunset member comes back; raised: those not silent that long any more.
  const lifted = await inBatches((limit) => moveBatch(deps, audienceId, sql`m.sunset_at is not null`, months === null ? sql`true` : sql`not ${silentFor(now, months)}`, null, limit));
  const sunset = months === null ? 0 : await inBatches((limit) => moveBatch(deps, audienceId, sql`m.sunset_at is null`, dueForSunset(now, months), now, limit));
  return { sunset, lifted };
}

async function inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await batch(SUNSET_BATCH);
    total += moved;
    if (moved < SUNSET_BATCH) return total;
  }
}

/** One statement: up to `limit` members of the audience in state `from` matching `when` get `sunset_at = to`. */
async function moveBatch(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, audienceId: string, from: SQL, when: SQL, to: Date | null, limit: number): Promise<number> {
  const at = deps.clock.now().toISOString();
  return deps.db.transaction(async (tx) => {
    // Declared, so the batch's ledger entries become contact.consent_changed events.
    await declareConsentSource(tx, { via: 'sunset' });
    const moved = await moveRows(tx, audienceId, from, when, to, limit, at);
    await logConsentChanges(tx, deps);
    return moved;
  });
}

async function moveRows(db: Db, audienceId: string, from: SQL, when: SQL, to: Date | null, limit: number, at: string): Promise<number> {
  const rows = await queryRows<{ moved: number }>(
    db,
    sql`with chosen as (
        select m.audience_id, m.contact_id from audience_memberships m join contacts c on c.id = m.contact_id
        where m.audience_id = ${audienceId} and ${from} and ${when}
        order by m.contact_id limit ${limit}
        for update of m skip locked
      ), moved as (
        update audience_memberships m set sunset_at = ${to ? sql`${to.toISOString()}::timestamptz` : sql`null`}, updated_at = ${at}::timestamptz
        from chosen where m.audience_id = chosen.audience_id and m.contact_id = chosen.contact_id and ${from}
        returning 1
      )
      select count(*)::int as moved from moved`,
  );
  return rows[0]?.moved ?? 0;
}
