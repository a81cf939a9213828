import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { checkReadiness } from '@/server/services/health/readiness';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('health', () => {
  it('answers liveness and readiness without a key', async () => {
    const live = await app.request('GET', '/api/health');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const ready = await app.request('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    expect(ready.body).toMatchObject({ status: 'ready', database: 'ok', checks: { database: { kind }, migrations: { applied: expect.any(Number), known: expect.any(Number) } }, roles: expect.any(Array), background: 'embedded' });
    expect(ready.body.checks.migrations.applied).toBe(ready.body.checks.migrations.known);
    expect(ready.body.checks.database.latencyMs).toBeGreaterThanOrEqual(0);
    // What it checked, never where: no URL, host or credential.
    expect(JSON.stringify(ready.body)).not.toMatch(/postgres:\/\/|127\.0\.0\.1|localhost|password/i);
  });

  it('is not ready while the database lacks a migration this build ships', async () => {
    const db = app.runtime.deps.db;
    const [row] = await queryRows<Record<string, unknown>>(db, sql`select * from drizzle.__drizzle_migrations order by id desc limit 1`);
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${row!.id}`);
    try {
      const ready = await app.request('GET', '/api/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: 'The database lacks 1 of this build\'s migrations' });
      expect(ready.headers.get('retry-after')).toBe('5');
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row!.id}, ${row!.hash}, ${row!.created_at})`);
    }
    expect((await app.request('GET', '/api/health/ready')).status).toBe(200);
  });
});

describe.runIf(process.env.DATABASE_URL)('readiness on Postgres', () => {
  it('is not ready once its bound has passed without an answer, and cancels the query it waited on', async () => {
    const holder = app.runtime.database.openSession!();
    const waitingOnLock = async () =>
      (await holder.query<{ n: number }>(`select count(*)::int as n from pg_locks where not granted and relation = 'drizzle.__drizzle_migrations'::regclass`))[0]!.n;
    await holder.query('begin');
    await holder.query('lock table drizzle.__drizzle_migrations in access exclusive mode');
    try {
      const started = performance.now();
      await expect(checkReadiness(app.runtime.deps, 300)).rejects.toMatchObject({ appCode: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable' });
      expect(performance.now() - started).toBeLessThan(2_000);
      // Cancelled, not left queued behind the lock: nothing of ours still waits for it.
      const deadline = performance.now() + 2_000;
      while ((await waitingOnLock()) > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await waitingOnLock()).toBe(0);
    } finally {
      await holder.query('rollback');
      await holder.close();
    }
    await expect(checkReadiness(app.runtime.deps)).resolves.toMatchObject({ status: 'ready' });
  });
});
