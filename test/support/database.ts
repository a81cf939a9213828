import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { migrate, openDatabase, type Database } from '@/db/client';

let pgliteTemplate: Promise<Blob> | undefined;

/** The run's migrated PGlite data directory (test/support/migrated-template.ts), read once per worker. */
function migratedPglite(): Promise<Blob> | undefined {
  const file = inject('pgliteTemplatePath');
  if (!file) return undefined;
  pgliteTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
  return pgliteTemplate;
}

/**
 * One database per test file: in-memory PGlite by default, or a fresh Postgres database beside
 * DATABASE_URL's when it is set, so files running in parallel never share tables. Each starts as a
 * copy of the run's migrated template when the global setup made one.
 */
export async function openTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const template = migratedPglite();
    const database = await openDatabase({ pgliteDump: template ? await template : undefined });
    if (!template) await migrate(database);
    return { ...database, drop: () => database.close().catch(() => {}) };
  }
  const name = `eumail_test_${randomBytes(6).toString('hex')}`;
  const template = inject('postgresTemplateName');
  const admin = await openDatabase({ url: baseUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(template ? `create database ${name} template ${template}` : `create database ${name}`));
  await admin.close();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 10 });
  if (!template) await migrate(database);
  return {
    ...database,
    drop: async () => {
      await database.close().catch(() => {});
      const cleanup = await openDatabase({ url: baseUrl, poolSize: 1 });
      await cleanup.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await cleanup.close();
    },
  };
}

/**
 * Empties every table but the migration journal and the registered workers (the apps' own
 * processes live on), between tests, and puts every sequence back to its start, in one round trip.
 * Only the tables holding rows are truncated: a test touches a few of the seventy, and a truncate
 * costs per table (a new file for each), which made the reset most of a short test's time.
 */
export async function resetDatabase(database: Database): Promise<void> {
  await database.db.execute(sql.raw(RESET));
}

const RESET = `do $reset$
declare
  name text;
  holding boolean;
  names text[] := '{}';
begin
  for name in select quote_ident(tablename) from pg_tables where schemaname = 'public' and tablename <> 'workers' loop
    execute format('select exists (select 1 from %s)', name) into holding;
    if holding then names := names || name; end if;
  end loop;
  if cardinality(names) > 0 then
    execute 'truncate ' || array_to_string(names, ', ') || ' cascade';
  end if;
  -- As restart identity did: a sequence a test advanced starts again, its table emptied or not.
  for name in select format('%I.%I', schemaname, sequencename) from pg_sequences where schemaname = 'public' and last_value is not null loop
    execute format('alter sequence %s restart', name);
  end loop;
end
$reset$`;
