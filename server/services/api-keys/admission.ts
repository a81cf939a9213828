import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { column, columnNames, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { apiKeys, organizations, rateLimitBuckets } from '@/db/schema';
import type { Deps } from '../../deps';
import { PLANS, RATE_LIMIT_WINDOW_MS } from '../plans/plans';
import type { Mode, Permission, Principal } from '../shared/principal';
import { slidingWindowUpsert, toRateLimitResult, type RateLimitResult } from '../plans/rate-limits';

/** What a request with an API key is let in as, and how it stands against its organization's rate limit. */
export interface Admission {
  principal: Principal;
  rateLimit: RateLimitResult | null;
}

const KEY_PATTERN = /^eu_(live|test)_[A-Za-z0-9_-]{43}$/;

export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

const PLAN_LIMITS = JSON.stringify(Object.fromEntries(Object.values(PLANS).map((plan) => [plan.id, plan.requestsPerWindow])));

interface AdmissionRow {
  key_id: string;
  organization_id: string;
  permission: Permission;
  mode: Mode;
  domain_id: string | null;
  plan: string;
  rate_limit_override: number | null;
  window_limit: number;
  last_allowed: boolean;
  hits: Array<string | number>;
}

const calls = sql`${sql.placeholder('calls')}::int`;

// One round trip on the hot path: find the key (revoked keys never match: revocation is
// immediate everywhere), count the request's calls (a tRPC batch makes several) against its
// organization's window, and note when the key was used. That note is written at most once a
// minute per key (the row is left alone while its time is recent), so a busy key costs no write
// per request; concurrent admissions at the minute's turn wait on the row for one short statement
// and then see it fresh.
const admit = perDatabase((db) =>
  prepareSql<AdmissionRow>(
    db,
    'admit_api_key',
    sql`with key as (
        select ${column(apiKeys, 'id', 'k')} as key_id, ${column(apiKeys, 'organizationId', 'k')} as organization_id, ${column(apiKeys, 'permission', 'k')},
          ${column(apiKeys, 'mode', 'k')}, ${column(apiKeys, 'domainId', 'k')} as domain_id, ${column(organizations, 'plan', 'o')},
          ${column(organizations, 'rateLimitOverride', 'o')} as rate_limit_override,
          coalesce(${column(organizations, 'rateLimitOverride', 'o')}, (${sql.placeholder('planLimits')}::jsonb ->> ${column(organizations, 'plan', 'o')})::int) as window_limit
        from ${tableName(apiKeys, 'k')} join ${tableName(organizations, 'o')} on ${column(organizations, 'id', 'o')} = ${column(apiKeys, 'organizationId', 'k')}
        where ${column(apiKeys, 'keyHash', 'k')} = ${sql.placeholder('hash')} and ${column(apiKeys, 'revokedAt', 'k')} is null
      ), counted as (
        insert into ${tableName(rateLimitBuckets, 'bucket')} (${columnNames(rateLimitBuckets, ['key', 'hits', 'lastAllowed'])})
        select 'org:' || key.organization_id,
          case when ${calls} <= key.window_limit then array_fill(${sql.placeholder('now')}::bigint, array[${calls}]) else '{}'::bigint[] end,
          ${calls} <= key.window_limit
        from key
        ${slidingWindowUpsert(sql`(select window_limit from key)`, calls)}
      ), used as (
        update ${tableName(apiKeys, 'u')} set ${column(apiKeys, 'lastUsedAt')} = ${sql.placeholder('usedAt')}::timestamptz
        from key where ${column(apiKeys, 'id', 'u')} = key.key_id
          and (${column(apiKeys, 'lastUsedAt', 'u')} is null or ${column(apiKeys, 'lastUsedAt', 'u')} <= ${sql.placeholder('usedAt')}::timestamptz - interval '1 minute')
      )
      select key.*, counted.last_allowed, counted.hits from key left join counted on true`,
  ),
);

/**
 * The caller behind a bearer secret with its rate-limit standing, or null for a malformed,
 * unknown or revoked key. `calls` is how many places the request takes in the window: all of them
 * or, refused, none.
 */
export async function admitApiKey(deps: Pick<Deps, 'db' | 'clock'>, secret: string, calls = 1): Promise<Admission | null> {
  if (!KEY_PATTERN.test(secret)) return null;
  const nowMs = deps.clock.now().getTime();
  const [row] = await admit(deps.db).execute({
    hash: hashKey(secret),
    planLimits: PLAN_LIMITS,
    calls,
    now: nowMs,
    since: nowMs - RATE_LIMIT_WINDOW_MS,
    usedAt: new Date(nowMs).toISOString(),
  });
  if (!row) return null;
  return {
    principal: {
      organizationId: row.organization_id,
      permission: row.permission,
      mode: row.mode,
      keyId: row.key_id,
      domainId: row.domain_id,
      userId: null,
      plan: row.plan,
      rateLimitOverride: row.rate_limit_override,
    },
    rateLimit: toRateLimitResult(row, Number(row.window_limit), RATE_LIMIT_WINDOW_MS, nowMs),
  };
}
