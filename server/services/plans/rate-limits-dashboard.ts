import { sql } from 'drizzle-orm';
import { columnNames, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { rateLimitBuckets } from '@/db/schema';
import type { Deps } from '../../deps';
import { RATE_LIMIT_WINDOW_MS } from './plans';
import { slidingWindowUpsert, toRateLimitResult, type RateLimitResult } from './rate-limits';

/**
 * The dashboard's calls, per organization, in a window of their own beside the API keys' (so a
 * busy dashboard never eats the API's budget, nor the other way round). A page asks for a handful
 * of queries and a few poll every few seconds; 600 calls in 10 s is a whole team on the dashboard
 * many times over, and still a ceiling for a script driving a stolen session.
 */
export const DASHBOARD_CALLS_PER_WINDOW = 600;

interface BucketRow {
  last_allowed: boolean;
  hits: Array<string | number>;
}

const calls = sql`${sql.placeholder('calls')}::int`;
const limit = sql`${sql.placeholder('limit')}::int`;

const count = perDatabase((db) =>
  prepareSql<BucketRow>(
    db,
    'dashboard_calls_take',
    sql`insert into ${tableName(rateLimitBuckets, 'bucket')} (${columnNames(rateLimitBuckets, ['key', 'hits', 'lastAllowed'])})
      values (${sql.placeholder('key')},
        case when ${calls} <= ${limit} then array_fill(${sql.placeholder('now')}::bigint, array[${calls}]) else '{}'::bigint[] end,
        ${calls} <= ${limit})
      ${slidingWindowUpsert(limit, calls)}`,
  ),
);

/** Counts `callCount` dashboard calls against the organization's window: all taken, or none and refused. */
export async function countDashboardCalls(deps: Pick<Deps, 'db' | 'clock'>, organizationId: string, callCount: number): Promise<RateLimitResult> {
  const nowMs = deps.clock.now().getTime();
  const [row] = await count(deps.db).execute({
    key: `dashboard:${organizationId}`,
    limit: DASHBOARD_CALLS_PER_WINDOW,
    calls: callCount,
    now: nowMs,
    since: nowMs - RATE_LIMIT_WINDOW_MS,
  });
  return toRateLimitResult(row, DASHBOARD_CALLS_PER_WINDOW, RATE_LIMIT_WINDOW_MS, nowMs);
}
