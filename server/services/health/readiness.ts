import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { withQueryBound } from '@/db/deadline';
import { projectRoot } from '@/db/project-root';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';

/** What a readiness check looked at: names and counts, never an address, a URL or a secret. */
export interface Readiness {
  status: 'ready';
  database: 'ok';
  checks: {
    database: { kind: 'postgres' | 'pglite'; latencyMs: number };
    migrations: { applied: number; known: number };
  };
  roles: Array<'web' | 'smtp' | 'worker'>;
  background: 'embedded' | 'inngest';
}

let knownMigrations: number | null = null;
/** The migrations this build ships. */
function migrationsKnown(): number {
  knownMigrations ??= (JSON.parse(readFileSync(path.join(projectRoot, 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
  return knownMigrations;
}

const unavailable = (why: string) => new AppError('SERVICE_UNAVAILABLE', why, { 'Retry-After': '5' });

/**
 * Ready when the database answers and holds at least the migrations this build knows (a newer
 * process may have applied more: migrations only add). 503 otherwise.
 */
export async function checkReadiness(deps: Pick<Deps, 'db' | 'config' | 'databaseKind'>, timeoutMs = 2_000): Promise<Readiness> {
  const started = performance.now();
  try {
    // Each query under the one query bound (db/deadline.ts, Postgres): past it, cancelled, and not ready.
    const { latencyMs, applied } = await withQueryBound(timeoutMs, async () => {
      await deps.db.execute(sql`select 1`);
      const answeredMs = performance.now() - started;
      const rows = await queryRows<{ n: number }>(deps.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      return { latencyMs: Math.round(answeredMs * 10) / 10, applied: Number(rows[0]?.n ?? 0) };
    });
    const known = migrationsKnown();
    if (applied < known) throw unavailable(`The database lacks ${known - applied} of this build's migrations`);
    return {
      status: 'ready',
      database: 'ok',
      checks: { database: { kind: deps.databaseKind, latencyMs }, migrations: { applied, known } },
      roles: deps.config.roles,
      background: deps.config.inngestEnabled ? 'inngest' : 'embedded',
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unavailable('The database is not reachable');
  }
}
