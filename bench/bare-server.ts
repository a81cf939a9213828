/**
 * Benchmark target (b): the floor. Plain node:http + postgres-js (same pool size as the service)
 * doing the same authenticated read as GET /api/api-keys: sha256 of the bearer secret, the key
 * looked up joined with its organization, then the organization's live keys, newest first, as
 * the same JSON body. No framework, no validation, no rate limit.
 *
 * BARE_PREPARE=0 turns off postgres-js's named prepared statements (see below);
 * BARE_SYNCHRONOUS_COMMIT=off lets commits return before their WAL is flushed.
 * BARE_RATE_LIMIT=1 adds the service's exact sliding-window upsert (same SQL as
 * server/services/rate-limits.ts), so the cost of the rate limit can be told apart from the cost
 * of the framework layers. Started by bench/run.ts; prints `READY <port>` when listening on
 * 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { serveTarget } from './serve-target';
import postgres from 'postgres';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const poolSize = Number(process.env.BENCH_POOL_SIZE ?? 10);
const withRateLimit = process.env.BARE_RATE_LIMIT === '1';
const WINDOW_MS = 10_000;

// BARE_PREPARE=0 sends every statement unnamed, as drizzle-orm's postgres-js driver does for any
// query not built with .prepare(name): a Parse/Describe round trip before each Bind/Execute, and
// a fresh parse and plan in Postgres every time.
const prepare = process.env.BARE_PREPARE !== '0';
// BARE_SYNCHRONOUS_COMMIT=off: commits (the rate-limit upsert's) do not wait for the WAL flush.
const synchronousCommit = process.env.BARE_SYNCHRONOUS_COMMIT;
const sql = postgres(databaseUrl, {
  max: poolSize,
  prepare,
  onnotice: () => {},
  ...(synchronousCommit ? { connection: { synchronous_commit: synchronousCommit } } : {}),
});

interface KeyRow {
  id: string;
  organization_id: string;
  name: string;
  token_start: string;
  key_hash: string;
  permission: string;
  mode: string;
  domain_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
};

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/api/api-keys') {
    return send(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return send(res, 401, { error: 'Missing API key', code: 'UNAUTHORIZED' });
  const hash = createHash('sha256').update(match[1]!).digest('hex');
  const [principal] = await sql<Array<{ organization_id: string; mode: string; plan: string; rate_limit_override: number | null }>>`
    select k.id, k.organization_id, k.permission, k.mode, k.domain_id, o.plan, o.rate_limit_override
    from api_keys k join organizations o on k.organization_id = o.id
    where k.key_hash = ${hash} and k.revoked_at is null`;
  if (!principal) return send(res, 401, { error: 'Missing, malformed or revoked API key', code: 'UNAUTHORIZED' });

  if (withRateLimit) {
    const nowMs = Date.now();
    const since = nowMs - WINDOW_MS;
    const limit = principal.rate_limit_override ?? 100;
    const [bucket] = await sql<Array<{ last_allowed: boolean; hits: string[] }>>`
      insert into rate_limit_buckets as b (key, hits, last_allowed)
      values (${`org:${principal.organization_id}`}, array[${nowMs}::bigint], true)
      on conflict (key) do update set
        last_allowed = (select count(*) from unnest(b.hits) h where h > ${since}::bigint) < ${limit},
        hits = case
          when (select count(*) from unnest(b.hits) h where h > ${since}::bigint) < ${limit}
            then array(select h from unnest(b.hits) h where h > ${since}::bigint order by h) || ${nowMs}::bigint
          else array(select h from unnest(b.hits) h where h > ${since}::bigint order by h)
        end
      returning last_allowed, hits`;
    if (bucket && !bucket.last_allowed) return send(res, 429, { error: 'Rate limited', code: 'RATE_LIMITED' });
  }

  const rows = await sql<KeyRow[]>`
    select id, organization_id, name, token_start, key_hash, permission, mode, domain_id, created_at, revoked_at
    from api_keys
    where organization_id = ${principal.organization_id} and revoked_at is null
      ${principal.mode === 'test' ? sql`and mode = 'test'` : sql``}
    order by id desc`;
  send(res, 200, {
    data: rows.map((row) => ({
      id: row.id,
      name: row.name,
      tokenStart: row.token_start,
      permission: row.permission,
      mode: row.mode,
      domainId: row.domain_id,
      createdAt: row.created_at.toISOString(),
    })),
  });
}

void serveTarget('bare', handle, () => sql.end({ timeout: 5 }));
