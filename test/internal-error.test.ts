import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let logged: string[] = [];
const original = console.error;
beforeAll(async () => {
  app = await startTestApp();
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
});
afterAll(async () => {
  console.error = original;
  await app.close();
});

describe('a failure inside the service', () => {
  it('answers 500 INTERNAL_ERROR with request_id, and never leaks the message, stack or SQL', async () => {
    const { apiKey } = await app.createOrg();
    await app.runtime.deps.db.execute(sql`alter table api_keys rename column permission to permission_gone`);
    logged = [];
    const response = await app.request('GET', '/api/api-keys', { key: apiKey });
    expect(response.status).toBe(500);
    const requestId = response.headers.get('x-request-id');
    expect(response.body).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR', request_id: requestId });
    expect(response.text).not.toMatch(/select|permission|api_keys|at .*\.ts/i);
    // The operator can find it by the request id in the log.
    expect(logged.some((line) => line.includes(requestId!))).toBe(true);
    await app.runtime.deps.db.execute(sql`alter table api_keys rename column permission_gone to permission`);
  });

  it('answers 503 on readiness when the database is down, liveness still 200', async () => {
    await app.runtime.database.close();
    const ready = await app.request('GET', '/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE', request_id: expect.any(String) });
    expect((await app.request('GET', '/api/health')).status).toBe(200);
  });
});
