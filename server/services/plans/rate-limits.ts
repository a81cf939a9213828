import { sql, type SQL } from 'drizzle-orm';
import { column } from '@/db/raw-sql';
import { rateLimitBuckets } from '@/db/schema';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window. */
  resetMs: number;
}

/**
 * The upsert of an exact sliding-window log, for an insert into `rate_limit_buckets` aliased `bucket`:
 * `hits` holds the times (epoch ms, ascending) of the requests let through in the window; a
 * new one is let through when fewer than `limit` of them are newer than `since`. The log is
 * kept sorted (a late clock appends the newest time again), so `width_bucket` finds the expired
 * prefix by binary search. The row lock makes every process on the database count together.
 * `weight` requests arrive together (a tRPC batch): all of them are let through, taking `weight`
 * places, or none is.
 */
export function slidingWindowUpsert(limit: SQL, weight: SQL = sql`1`): SQL {
  const since = sql`${sql.placeholder('since')}::bigint`;
  const now = sql`${sql.placeholder('now')}::bigint`;
  const hitsOf = column(rateLimitBuckets, 'hits', 'bucket');
  const hits = column(rateLimitBuckets, 'hits');
  const lastAllowed = column(rateLimitBuckets, 'lastAllowed');
  const expired = sql`width_bucket(${since}, ${hitsOf})`;
  const hasRoom = sql`cardinality(${hitsOf}) - ${expired} + ${weight} <= ${limit}`;
  return sql`on conflict (${column(rateLimitBuckets, 'key')}) do update set
    ${lastAllowed} = ${hasRoom},
    ${hits} = case when ${hasRoom}
      then ${hitsOf}[${expired} + 1:] || array_fill(greatest(${now}, ${hitsOf}[cardinality(${hitsOf})]), array[${weight}])
      else ${hitsOf}[${expired} + 1:] end
    returning ${lastAllowed}, ${hits}`;
}

export function toRateLimitResult(row: { last_allowed: boolean; hits: Array<string | number> } | undefined, limit: number, windowMs: number, nowMs: number): RateLimitResult {
  const hits = (row?.hits ?? []).map(Number);
  const oldest = hits.length > 0 ? hits[0]! : nowMs;
  return {
    allowed: row?.last_allowed ?? true,
    limit,
    remaining: Math.max(0, limit - hits.length),
    resetMs: Math.max(0, oldest + windowMs - nowMs),
  };
}
