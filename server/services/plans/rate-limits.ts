import { sql, type SQL } from 'drizzle-orm';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window. */
  resetMs: number;
}

/**
 * The upsert of an exact sliding-window log, for `insert into rate_limit_buckets as bucket`:
 * `hits` holds the times (epoch ms, ascending) of the requests let through in the window; a
 * new one is let through when fewer than `limit` of them are newer than `since`. The log is
 * kept sorted (a late clock appends the newest time again), so `width_bucket` finds the expired
 * prefix by binary search. The row lock makes every process on the database count together.
 */
export function slidingWindowUpsert(limit: SQL): SQL {
  const since = sql`${sql.placeholder('since')}::bigint`;
  const now = sql`${sql.placeholder('now')}::bigint`;
  const expired = sql`width_bucket(${since}, bucket.hits)`;
  const hasRoom = sql`cardinality(bucket.hits) - ${expired} < ${limit}`;
  return sql`on conflict (key) do update set
    last_allowed = ${hasRoom},
    hits = case when ${hasRoom}
      then bucket.hits[${expired} + 1:] || greatest(${now}, bucket.hits[cardinality(bucket.hits)])
      else bucket.hits[${expired} + 1:] end
    returning last_allowed, hits`;
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
