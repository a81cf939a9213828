import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window. */
  resetMs: number;
}

/**
 * Exact sliding-window log: a request is let through when fewer than `limit` requests were let
 * through in the `windowMs` before it. One upsert holds the row lock, so every process sharing
 * the database counts against the same log.
 */
export async function consumeRateLimit(db: Db, input: { key: string; limit: number; windowMs: number; nowMs: number }): Promise<RateLimitResult> {
  const { key, limit, windowMs, nowMs } = input;
  const since = nowMs - windowMs;
  const [row] = await queryRows<{ last_allowed: boolean; hits: Array<string | number> }>(
    db,
    sql`
      insert into rate_limit_buckets as b (key, hits, last_allowed)
      values (${key}, array[${nowMs}::bigint], true)
      on conflict (key) do update set
        last_allowed = (select count(*) from unnest(b.hits) h where h > ${since}::bigint) < ${limit},
        hits = case
          when (select count(*) from unnest(b.hits) h where h > ${since}::bigint) < ${limit}
            then array(select h from unnest(b.hits) h where h > ${since}::bigint order by h) || ${nowMs}::bigint
          else array(select h from unnest(b.hits) h where h > ${since}::bigint order by h)
        end
      returning last_allowed, hits`,
  );
  const hits = (row?.hits ?? []).map(Number);
  const oldest = hits.length > 0 ? Math.min(...hits) : nowMs;
  return {
    allowed: row?.last_allowed ?? true,
    limit,
    remaining: Math.max(0, limit - hits.length),
    resetMs: Math.max(0, oldest + windowMs - nowMs),
  };
}
