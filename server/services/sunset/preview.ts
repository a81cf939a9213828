import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import type { Deps } from '../../deps';
import { ownAudience } from '../audiences/crud';
import type { Principal } from '../shared/principal';
import { dueForSunset, receivingMember, SUNSET_MONTHS_DEFAULT, warned } from './rule';

/** What a sunset setting would do to an audience, before it is turned on (or changed). */
export interface SunsetPreview {
  months: number;
  /** Members who would get a broadcast but for a sunset: subscribed here and not unsubscribed from everything. */
  subscribed: number;
  /** Of those, how many a run with this setting would leave sunset (those sunset now included, if still due). */
  wouldSunset: number;
  /** Of those, how many are sunset now. */
  sunsetNow: number;
  /** Of those, how many were sent the re-engagement email and are in their grace period (not sunset, no sign of a person since). */
  reengagedNow: number;
}

/**
 * How many of the audience's members a sunset of `months` (else its own setting, else
 * SUNSET_MONTHS_DEFAULT) would set sunset if the run came now: exactly the members the run
 * (./run.ts) leaves sunset at this clock, by the same rule (./rule.ts). One count over the
 * audience's memberships; the organization's own audience or 404.
 */
export async function sunsetPreview(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, audienceId: string, asked?: number): Promise<SunsetPreview> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const months = asked ?? audience.sunsetAfterMonths ?? SUNSET_MONTHS_DEFAULT;
  const [row] = await queryRows<{ subscribed: number; would: number; now: number; reengaged: number }>(
    deps.db,
    sql`select count(*)::int as subscribed,
        count(*) filter (where ${dueForSunset(deps.clock.now(), months)})::int as would,
        count(*) filter (where m.sunset_at is not null)::int as now,
        count(*) filter (where m.sunset_at is null and ${warned})::int as reengaged
      from audience_memberships m join contacts c on c.id = m.contact_id
      where m.audience_id = ${audience.id} and ${receivingMember}`,
  );
  return { months, subscribed: row?.subscribed ?? 0, wouldSunset: row?.would ?? 0, sunsetNow: row?.now ?? 0, reengagedNow: row?.reengaged ?? 0 };
}
