import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { withDeadlines } from './deadline';
import { projectRoot } from './project-root';
import * as schema from './schema';

type Schema = typeof schema;
/** The one database type services see, whether PGlite or Postgres is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** One connection of its own, outside the pool: a session-level advisory lock lives as long as it does. */
export interface SessionConnection {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  url?: string;
  /** Postgres only: a dedicated connection (PGlite is one connection, owned by one process). */
  openSession?(): SessionConnection;
  /** Postgres only: this pool's connections by state, as the server sees them (the asking one left out). */
  connectionStates?(): Promise<Array<{ state: string; count: number }>>;
  /** Postgres only: the most connections the pool opens. */
  poolSize?: number;
  close(): Promise<void>;
}

/** How long a connection attempt may take: a server that does not answer is down, not slow. */
const CONNECT_TIMEOUT_S = 2;
/** The bound on one query of background work; a request's own deadline is shorter (withDatabaseDeadline). */
const BACKGROUND_QUERY_BOUND_MS = 30_000;
/**
 * Asked of the server for each connection. `idle_in_transaction_session_timeout`: a transaction
 * left open by a connection we gave up on ends, and its locks go with it. `jit` off: the service
 * runs short statements, and Postgres compiled the webhook claim with LLVM on every run (its cost
 * estimate crosses `jit_above_cost`), 0.6 ms of compiling for a statement that runs in 0.5 ms.
 */
const SERVER_SETTINGS = { idle_in_transaction_session_timeout: 60_000, jit: 'off' };
/**
 * Seconds before a connection that failed is tried again. postgres-js's own back-off grows with
 * every failure of the pool up to 20 s, so after an outage of a few seconds queries waited that
 * long for a database that was back; capped at 1 s, recovery takes about a second.
 */
const reconnectBackoffS = (retries: number) => Math.min(0.25 * retries, 1);

const migrationsFolder = path.join(projectRoot, 'db', 'migrations');

/**
 * Opens Postgres when a URL is given, otherwise embedded PGlite (in memory when dataDir is null;
 * `pgliteDump`: starting from a data directory dumped by `dumpPglite`, without initdb).
 */
export async function openDatabase(options: { url?: string; dataDir?: string | null; poolSize?: number; pgliteDump?: Blob }): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const url = options.url;
    // Named, so that pg_stat_activity tells this pool's connections from every other process's.
    const applicationName = `eumail-${process.pid}-${randomBytes(3).toString('hex')}`;
    const settings = { onnotice: () => {}, connect_timeout: CONNECT_TIMEOUT_S, keep_alive: 5, backoff: reconnectBackoffS, connection: { ...SERVER_SETTINGS, application_name: applicationName } };
    const poolSize = options.poolSize ?? 10;
    const client = postgres(url, { ...settings, max: poolSize });
    const db = drizzle(withDeadlines(client, BACKGROUND_QUERY_BOUND_MS), { schema }) as unknown as Db;
    const openSession = (): SessionConnection => {
      const session = postgres(url, { ...settings, max: 1 });
      const bounded = withDeadlines(session, BACKGROUND_QUERY_BOUND_MS);
      return {
        query: async <T>(text: string, params: unknown[] = []) => [...(await bounded.unsafe(text, params as never[]))] as T[],
        close: () => session.end({ timeout: 1 }),
      };
    };
    const connectionStates = async () => {
      const rows = await client<Array<{ state: string | null; count: number }>>`select state, count(*)::int as count from pg_stat_activity
        where application_name = ${applicationName} and pid <> pg_backend_pid() group by state`;
      return rows.map((row) => ({ state: row.state ?? 'unknown', count: row.count }));
    };
    return { db, kind: 'postgres', url, openSession, connectionStates, poolSize, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  // pg_trgm: the substring searches of contacts and suppressions are indexed, as on Postgres.
  const client = new PGlite({ dataDir: options.dataDir ?? undefined, loadDataDir: options.pgliteDump, extensions: { pg_trgm } });
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}

/** A PGlite database's whole data directory as a gzipped tar, for `openDatabase({ pgliteDump })`. */
export async function dumpPglite(database: Database): Promise<Blob> {
  if (database.kind !== 'pglite') throw new Error('only a PGlite database can be dumped');
  const { PGlite } = await import('@electric-sql/pglite');
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (!(client instanceof PGlite)) throw new Error('the PGlite client is not reachable from this database');
  return client.dumpDataDir('gzip');
}

/** Applies the committed migrations; an advisory lock keeps two starting processes from racing. */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator');
    await run(database.db as never, { migrationsFolder });
    return;
  }
  if (!database.url) throw new Error('a Postgres database needs its URL to migrate');
  // One dedicated connection, so the session-level advisory lock and the migration share it.
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate: run } = await import('drizzle-orm/postgres-js/migrator');
  const client = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(727001)`;
    await run(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(727001)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Rows of a raw query, whichever driver ran it. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
