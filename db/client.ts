import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { projectRoot } from './project-root';
import * as schema from './schema';

type Schema = typeof schema;
/** The one database type services see, whether PGlite or Postgres is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  url?: string;
  close(): Promise<void>;
}

const migrationsFolder = path.join(projectRoot, 'db', 'migrations');

/** Opens Postgres when a URL is given, otherwise embedded PGlite (in memory when dataDir is null). */
export async function openDatabase(options: { url?: string; dataDir?: string | null; poolSize?: number }): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const client = postgres(options.url, { max: options.poolSize ?? 10, onnotice: () => {} });
    const db = drizzle(client, { schema }) as unknown as Db;
    return { db, kind: 'postgres', url: options.url, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const client = options.dataDir ? new PGlite(options.dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
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
