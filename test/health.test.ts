import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
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
