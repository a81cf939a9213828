import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { projectRoot } from '@/db/project-root';

// For tests of one migration over data as the schema before it held it: a copy of the migrations
// folder that stops just before it, and the engines to build a database on (PGlite, and Postgres
// when DATABASE_URL names one: a fresh database beside it).

export const MIGRATIONS = path.join(projectRoot, 'db', 'migrations');

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/** A copy of the migrations folder that ends just before the new migration. */
export async function migrationsBefore(tag: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eumail-migrations-'));
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as Journal;
  const stop = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(stop).toBeGreaterThan(0);
  const kept = journal.entries.slice(0, stop);
  await mkdir(path.join(dir, 'meta'));
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const entry of kept) await copyFile(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

export interface Engine {
  name: string;
  open(): Promise<Database & { drop(): Promise<void> }>;
  migrate(database: Database, folder: string): Promise<void>;
}

const pglite: Engine = {
  name: 'PGlite',
  async open() {
    const database = await openDatabase({});
    return { ...database, drop: () => database.close() };
  },
  async migrate(database, folder) {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: folder });
  },
};

const postgres: Engine = {
  name: 'Postgres',
  async open() {
    const baseUrl = process.env.DATABASE_URL!;
    const name = `eumail_migration_${randomBytes(6).toString('hex')}`;
    const admin = await openDatabase({ url: baseUrl, poolSize: 1 });
    await admin.db.execute(sql.raw(`create database ${name}`));
    await admin.close();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 2 });
    return {
      ...database,
      drop: async () => {
        await database.close();
        const cleanup = await openDatabase({ url: baseUrl, poolSize: 1 });
        await cleanup.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
        await cleanup.close();
      },
    };
  },
  async migrate(database, folder) {
    const { default: connect } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const client = connect(database.url!, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(client), { migrationsFolder: folder });
    } finally {
      await client.end({ timeout: 5 });
    }
  },
};

/** PGlite always; Postgres too when DATABASE_URL names one. */
export const migrationEngines = (): Engine[] => [pglite, ...(process.env.DATABASE_URL ? [postgres] : [])];
