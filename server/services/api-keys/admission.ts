import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { apiKeys, organizations, rateLimitBuckets } from '@/db/schema';
import type { Deps } from '../../deps';
import { PLANS, RATE_LIMIT_WINDOW_MS } from '../plans/plans';
import type { Mode, Permission, Principal } from '../shared/principal';
import type { Dialect } from '../../vocabulary/api-keys';
import { slidingWindowUpsert, toRateLimitResult, type RateLimitResult } from '../plans/rate-limits';

/** What a request with an API key is let in as, and how it stands against its organization's rate limit. */
export interface Admission {
  principal: Principal;
  rateLimit: RateLimitResult | null;
  /** The shape of the key's REST answers (an edge concern, so beside the principal, not in it); absent for a session: the spec's. */
  dialect?: Dialect;
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
  dialect: Dialect;
  plan: string;
  rate_limit_override: number | null;
  window_limit: number;
  last_allowed: boolean;
  hits: Array<string | number>;
}

interface AdmissionRequest {
  hash: string;
  calls: number;
}

/** One answer row per admitted request, by its position in the statement's input. */
type AdmissionAnswer = AdmissionRow & { ordinal: number };

const organizationBucket = sql`'org:' || key.organization_id`;
// Correlated with the bucket being upserted: each organization's own request in the statement.
const requestOf = (field: 'window_limit' | 'calls') => sql`(select r.${sql.raw(field)} from key r where 'org:' || r.organization_id = ${column(rateLimitBuckets, 'key', 'bucket')})`;

// One round trip for every request admitted together: find each key (revoked keys never match:
// revocation is immediate everywhere; nor do the keys of an organization being deleted), count each request's calls (a tRPC batch makes several)
// against its organization's window, and note when each key was used. That note is written at
// most once a minute per key (the row is left alone while its time is recent), so a busy key
// costs no write per request; an admission that finds the row being noted by another skips it
// (the note is being written: no wait, no lock order between keys). At most one request per organization per statement
// (admitTogether): an upsert touches each bucket row once.
const admit = perDatabase((db) =>
  prepareSql<AdmissionAnswer>(
    db,
    'admit_api_keys',
    sql`with input as (
        select * from unnest((select ${sql.placeholder('hashes')}::text[]), (select ${sql.placeholder('calls')}::int[])) with ordinality as i(hash, calls, ordinal)
      ), key as (
        select i.ordinal::int as ordinal, i.calls, ${column(apiKeys, 'id', 'k')} as key_id, ${column(apiKeys, 'organizationId', 'k')} as organization_id, ${column(apiKeys, 'permission', 'k')},
          ${column(apiKeys, 'mode', 'k')}, ${column(apiKeys, 'domainId', 'k')} as domain_id, ${column(apiKeys, 'dialect', 'k')}, ${column(organizations, 'plan', 'o')},
          ${column(organizations, 'rateLimitOverride', 'o')} as rate_limit_override,
          coalesce(${column(organizations, 'rateLimitOverride', 'o')}, (${sql.placeholder('planLimits')}::jsonb ->> ${column(organizations, 'plan', 'o')})::int) as window_limit
        from input i
          join ${tableName(apiKeys, 'k')} on ${column(apiKeys, 'keyHash', 'k')} = i.hash and ${column(apiKeys, 'revokedAt', 'k')} is null
          join ${tableName(organizations, 'o')} on ${column(organizations, 'id', 'o')} = ${column(apiKeys, 'organizationId', 'k')} and ${column(organizations, 'deletionRequestedAt', 'o')} is null
      ), counted as (
        insert into ${tableName(rateLimitBuckets, 'bucket')} (${columnNames(rateLimitBuckets, ['key', 'hits', 'lastAllowed'])})
        select ${organizationBucket},
          case when key.calls <= key.window_limit then array_fill(${sql.placeholder('now')}::bigint, array[key.calls]) else '{}'::bigint[] end,
          key.calls <= key.window_limit
        from key
        order by 1
        ${slidingWindowUpsert(requestOf('window_limit'), requestOf('calls'))}, ${column(rateLimitBuckets, 'key')} as bucket_key
      ), used as (
        update ${tableName(apiKeys, 'u')} set ${column(apiKeys, 'lastUsedAt')} = ${sql.placeholder('usedAt')}::timestamptz
        where ${column(apiKeys, 'id', 'u')} in (
          select ${column(apiKeys, 'id', 'stale')} from ${tableName(apiKeys, 'stale')}
          where ${column(apiKeys, 'id', 'stale')} in (select key_id from key)
            and (${column(apiKeys, 'lastUsedAt', 'stale')} is null or ${column(apiKeys, 'lastUsedAt', 'stale')} <= ${sql.placeholder('usedAt')}::timestamptz - interval '1 minute')
          for update skip locked)
      )
      select key.*, counted.last_allowed, counted.hits from key left join counted on counted.bucket_key = ${organizationBucket}`,
  ),
);

const KNOWN_KEYS_MAX = 100_000;

/** A request's answer, and the time its window was counted at. */
interface Admitted {
  row: AdmissionRow | null;
  nowMs: number;
}

interface Flight {
  request: AdmissionRequest;
  settle: (admitted: Admitted) => void;
  fail: (error: unknown) => void;
}

interface AdmissionQueue {
  waiting: Flight[];
  flushing: boolean;
  /** Which organization a key belongs to never changes: known, its requests can share a statement with other organizations'. */
  organizationOfKey: Map<string, string>;
}

const queues = new WeakMap<Db, AdmissionQueue>();
/** As many requests as one statement admits. */
const MAX_TOGETHER = 64;

/**
 * The requests of one statement: at most one per organization (and a key whose organization is
 * not known yet goes alone: it might share one with another), in arrival order; the rest wait.
 */
function nextGroup({ waiting, organizationOfKey }: AdmissionQueue): Flight[] {
  const taken: Flight[] = [];
  const organizations = new Set<string>();
  for (let i = 0; i < waiting.length && taken.length < MAX_TOGETHER; i++) {
    const organization = organizationOfKey.get(waiting[i]!.request.hash);
    if (organization === undefined) {
      if (taken.length === 0) taken.push(waiting.splice(i, 1)[0]!);
      break;
    }
    if (organizations.has(organization)) continue;
    organizations.add(organization);
    taken.push(waiting.splice(i--, 1)[0]!);
  }
  return taken;
}

async function admitGroup(deps: Pick<Deps, 'db' | 'clock'>, queue: AdmissionQueue, group: Flight[]): Promise<void> {
  const nowMs = deps.clock.now().getTime();
  const rows = await admit(deps.db).execute({
    hashes: `{${group.map((flight) => flight.request.hash).join(',')}}`,
    calls: `{${group.map((flight) => flight.request.calls).join(',')}}`,
    planLimits: PLAN_LIMITS,
    now: nowMs,
    since: nowMs - RATE_LIMIT_WINDOW_MS,
    usedAt: new Date(nowMs).toISOString(),
  });
  const byOrdinal = new Map(rows.map((row) => [Number(row.ordinal), row]));
  group.forEach((flight, index) => {
    const row = byOrdinal.get(index + 1) ?? null;
    if (row && queue.organizationOfKey.size < KNOWN_KEYS_MAX) queue.organizationOfKey.set(flight.request.hash, row.organization_id);
    flight.settle({ row, nowMs });
  });
}

async function flush(deps: Pick<Deps, 'db' | 'clock'>, queue: AdmissionQueue): Promise<void> {
  queue.flushing = true;
  try {
    while (queue.waiting.length > 0) {
      const group = nextGroup(queue);
      try {
        await admitGroup(deps, queue, group);
      } catch (error) {
        if (group.length === 1) {
          group[0]!.fail(error);
          continue;
        }
        // One request's trouble is never the others': each is admitted again on its own.
        for (const flight of group) await admitGroup(deps, queue, [flight]).catch(flight.fail);
      }
    }
  } finally {
    queue.flushing = false;
  }
}

// Every API request is admitted by a write (its organization's window moves), which made a single
// send two write transactions: the admission's and the store's. Requests arriving while one
// admission is under way go together in the next statement instead, as the stores do: one round
// trip and one commit for many organizations' requests, each counted on its own.
function admitTogether(deps: Pick<Deps, 'db' | 'clock'>, request: AdmissionRequest): Promise<Admitted> {
  let queue = queues.get(deps.db);
  if (!queue) queues.set(deps.db, (queue = { waiting: [], flushing: false, organizationOfKey: new Map() }));
  const ready = queue;
  const answer = new Promise<Admitted>((settle, fail) => ready.waiting.push({ request, settle, fail }));
  if (!ready.flushing) void flush(deps, ready);
  return answer;
}

/**
 * The caller behind a bearer secret with its rate-limit standing, or null for a malformed,
 * unknown or revoked key. `calls` is how many places the request takes in the window: all of them
 * or, refused, none.
 */
export async function admitApiKey(deps: Pick<Deps, 'db' | 'clock'>, secret: string, calls = 1): Promise<Admission | null> {
  if (!KEY_PATTERN.test(secret)) return null;
  const { row, nowMs } = await admitTogether(deps, { hash: hashKey(secret), calls });
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
    dialect: row.dialect,
  };
}

const dialectOfHash = perDatabase((db) =>
  db
    .select({ dialect: apiKeys.dialect })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare('api_key_dialect'),
);

/**
 * The dialect of a key that was not admitted, for a refusal made before admission (an unknown
 * path, a method not allowed): a read that counts nothing against the rate limit and notes no use.
 * Null for a malformed, unknown or revoked key.
 */
export async function dialectOfKey(deps: Pick<Deps, 'db'>, secret: string): Promise<Dialect | null> {
  if (!KEY_PATTERN.test(secret)) return null;
  const [row] = await dialectOfHash(deps.db).execute({ hash: hashKey(secret) });
  return row?.dialect ?? null;
}
