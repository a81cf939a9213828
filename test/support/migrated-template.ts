import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { dumpPglite, migrate, openDatabase } from '@/db/client';

declare module 'vitest' {
  interface ProvidedContext {
    /** A gzipped PGlite data directory with every migration applied (PGlite runs). */
    pgliteTemplatePath: string | null;
    /** A Postgres database with every migration applied, to copy (runs with DATABASE_URL). */
    postgresTemplateName: string | null;
  }
}

/**
 * Vitest's global setup: the migrations are applied once per run, and each test file's database
 * starts as a copy. A fresh PGlite spends most of its start in initdb and the migrations (seconds
 * each on this machine, per file); loading a dumped data directory skips both. On Postgres the copy
 * is `create database … template`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const database = await openDatabase({});
    await migrate(database);
    const dump = await dumpPglite(database);
    await database.close();
    const folder = await mkdtemp(path.join(tmpdir(), 'eumail-pglite-template-'));
    const file = path.join(folder, 'migrated.tar.gz');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplatePath', file);
    project.provide('postgresTemplateName', null);
    return () => rm(folder, { recursive: true, force: true });
  }
  const name = `eumail_template_${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ url: baseUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const template = await openDatabase({ url: url.toString(), poolSize: 1 });
  await migrate(template);
  // A template is copied only while nobody is connected to it.
  await template.close();
  project.provide('pgliteTemplatePath', null);
  project.provide('postgresTemplateName', name);
  return async () => {
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  };
}
