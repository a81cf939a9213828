import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { sqlUuidV7 } from '@/db/raw-sql';
import { audiences } from '@/db/schema';
import { rulesSql } from './rule-sql';
import type { SegmentRules } from './rules';

/**
 * How many contacts each rule segment's rules match now, in one pass over the organization's
 * contacts: a listing of segments costs one statement, however many are defined by rules.
 */
export async function countMatchingEach(db: Db, organizationId: string, segments: { id: string; rules: SegmentRules }[], now: Date): Promise<Map<string, number>> {
  if (segments.length === 0) return new Map();
  const counts = sql.join(
    segments.map((segment, index) => sql`count(*) filter (where ${rulesSql(segment.rules, now)})::int as ${sql.identifier(`s${index}`)}`),
    sql`, `,
  );
  const [row] = await queryRows<Record<string, number>>(db, sql`select ${counts} from contacts c where c.organization_id = ${organizationId} and not c.unsubscribed`);
  return new Map(segments.map((segment, index) => [segment.id, row?.[`s${index}`] ?? 0]));
}

/**
 * The rule segment's memberships made what its rules match now, in one statement: a contact newly
 * matched joins (subscribed), one no longer matched leaves, except that an opt-out (its membership
 * unsubscribed) stays, so an unsubscribe from this segment's broadcasts is never forgotten. The
 * count and the time of evaluation move with it. Answers the members now and the contacts that
 * joined (a `contact.added_to_segment` trigger starts on them: automations/triggers/rule-segments.ts).
 */
export async function evaluateRuleSegmentJoining(tx: Db, segment: { id: string; organizationId: string; rules: SegmentRules }, now: Date): Promise<{ count: number; joined: string[] }> {
  const at = now.toISOString();
  const rows = await queryRows<{ count: number; joined: string[] | null }>(tx, sql`with matching as (
      select c.id from contacts c where c.organization_id = ${segment.organizationId} and not c.unsubscribed and ${rulesSql(segment.rules, now)}
    ), left_segment as (
      delete from audience_memberships m where m.audience_id = ${segment.id} and m.subscribed and m.contact_id not in (select id from matching)
      returning 1
    ), joined as (
      insert into audience_memberships (id, audience_id, contact_id, organization_id, subscribed, created_at, updated_at)
      select ${sqlUuidV7}, ${segment.id}, id, ${segment.organizationId}, true, ${at}::timestamptz, ${at}::timestamptz from matching
      on conflict (audience_id, contact_id) do nothing
      returning contact_id
    )
    update audiences set contact_count = contact_count - (select count(*) from left_segment) + (select count(*) from joined), rules_evaluated_at = ${at}::timestamptz
    where id = ${segment.id}
    returning contact_count as count, (select array_agg(contact_id::text) from joined) as joined`);
  return { count: rows[0]?.count ?? 0, joined: rows[0]?.joined ?? [] };
}

/** The rule segment evaluated now (evaluateRuleSegmentJoining); answers the members now. */
export async function evaluateRuleSegment(tx: Db, segment: { id: string; organizationId: string; rules: SegmentRules }, now: Date): Promise<number> {
  return (await evaluateRuleSegmentJoining(tx, segment, now)).count;
}

/** Evaluates the audience when it is a rule segment (a broadcast's hand-off), answering the contacts that joined; a list whose contacts are added is left as it is. */
export async function evaluateIfRuleSegment(tx: Db, audienceId: string, now: Date): Promise<string[]> {
  const [audience] = await tx.select({ id: audiences.id, organizationId: audiences.organizationId, rules: audiences.rules }).from(audiences).where(eq(audiences.id, audienceId));
  if (!audience?.rules) return [];
  return (await evaluateRuleSegmentJoining(tx, { id: audience.id, organizationId: audience.organizationId, rules: audience.rules }, now)).joined;
}
