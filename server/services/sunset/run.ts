import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import type { Deps } from '../../deps';
import { dueForSunset, graceOver, silentFor } from './rule';
import { sendReengagement } from './reengagement';
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
  /** Members sent the re-engagement email (./reengagement.ts). */
  reengaged: number;
}

/** An audience as the run reads it: its setting, and its re-engagement email if it has one. */
interface SunsetTarget {
  id: string;
  organizationId: string;
  months: number | null;
  templateId: string | null;
  from: string | null;
  graceDays: number | null;
}

const targetColumns = sql`a.id, a.organization_id as "organizationId", a.sunset_after_months as months, a.sunset_reengagement_template_id as "templateId",
  a.sunset_reengagement_from as "from", a.sunset_grace_days as "graceDays"`;

/**
 * The daily sunset run (jobs/due-work.ts): in each audience with a setting, every receiving member
 * silent for its months (./rule.ts) is set sunset; a member sunset before and no longer due (the
 * setting was raised, or turned off) is lifted. The engagement and opt-in lifts happen at once,
 * in the database (migration `audience_sunset`); this run only catches up with the clock and the
 * setting. Each move is a consent-ledger entry, written by the trigger on `sunset_at` (via `sunset`).
 *
 * Idempotent, and safe beside a second run: each batch is one statement that locks the rows it
 * moves (skipping rows another run holds) and only moves rows still in the state it looked for.
 * No claim (shared/claims/): a claim holds a row across an attempt longer than a transaction, and
 * here the work ends with each statement's transaction (docs/architecture.md, "Background work").
 */
export async function runSunset(deps: Deps): Promise<SunsetRunResult> {
  // Audiences with sunset members come from the partial index of sunset members, not a scan of all memberships.
  const targets = await queryRows<SunsetTarget>(
    deps.db,
    sql`select ${targetColumns} from audiences a
      where a.sunset_after_months is not null
        or a.id in (select distinct m.audience_id from audience_memberships m where m.sunset_at is not null)
      order by a.id`,
  );
  const total = { audiences: targets.length, sunset: 0, lifted: 0, reengaged: 0 };
  for (const audience of targets) {
    const moved = await applySunset(deps, audience);
    total.sunset += moved.sunset;
    total.lifted += moved.lifted;
    total.reengaged += moved.reengaged;
  }
  return total;
}

/** The run for one audience (a changed setting wakes it): its setting applied now. A deleted audience moves nothing. */
export async function sunsetAudience(deps: Deps, audienceId: string): Promise<{ sunset: number; lifted: number; reengaged: number }> {
  const [audience] = await queryRows<SunsetTarget>(deps.db, sql`select ${targetColumns} from audiences a where a.id = ${audienceId}`);
  return audience ? applySunset(deps, audience) : { sunset: 0, lifted: 0, reengaged: 0 };
}

/**
 * One audience's setting applied now. Without a re-engagement email, every member due is set
 * sunset. With one, a member due is first sent it (./reengagement.ts) and set sunset only once the
 * grace period has passed since, with no sign of a person meanwhile; a member the email could not
 * reach yet (a refusal, recorded on the audience) is not sunset.
 */
async function applySunset(deps: Deps, audience: SunsetTarget): Promise<{ sunset: number; lifted: number; reengaged: number }> {
  const now = deps.clock.now();
  const { id: audienceId, months } = audience;
  // Off: every sunset member comes back; raised: those not silent that long any more.
  const lifted = await inBatches((limit) => moveBatch(deps, audienceId, sql`m.sunset_at is not null`, months === null ? sql`true` : sql`not ${silentFor(now, months)}`, null, limit));
  if (months === null) return { sunset: 0, lifted, reengaged: 0 };
  const withEmail = audience.from !== null && audience.graceDays !== null;
  const due = withEmail ? graceOver(now, months, audience.graceDays!) : dueForSunset(now, months);
  const sunset = await inBatches((limit) => moveBatch(deps, audienceId, sql`m.sunset_at is null`, due, now, limit));
  if (!withEmail) return { sunset, lifted, reengaged: 0 };
  const { warned } = await sendReengagement(deps, { audienceId, organizationId: audience.organizationId, months, templateId: audience.templateId, from: audience.from! });
  return { sunset, lifted, reengaged: warned };
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
async function moveBatch(deps: Deps, audienceId: string, from: SQL, when: SQL, to: Date | null, limit: number): Promise<number> {
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
