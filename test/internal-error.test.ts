import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './support/app';
import { captureLog } from './support/log-capture';

let app: TestApp;
const captured = captureLog();
beforeAll(async () => {
  app = await startTestApp({ log: captured.log });
});
afterAll(() => app.close());

describe('a failure inside the service', () => {
  it('answers 500 INTERNAL_ERROR with request_id, and never leaks the message, stack or SQL', async () => {
    const { apiKey } = await app.createOrg();
    await app.runtime.deps.db.execute(sql`alter table api_keys rename column permission to permission_gone`);
    captured.lines.length = 0;
    const response = await app.request('GET', '/api/api-keys', { key: apiKey });
    expect(response.status).toBe(500);
    const requestId = response.headers.get('x-request-id');
    expect(response.body).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR', request_id: requestId });
    expect(response.text).not.toMatch(/select|permission|api_keys|at .*\.ts/i);
    // The operator can find it by the request id in the log.
    const failure = captured.lines.find((line) => line.msg === 'request failed');
    expect(failure).toMatchObject({ level: 50, requestId, err: { message: expect.stringMatching(/permission/) } });
    expect(captured.lines.find((line) => line.msg === 'request')).toMatchObject({ requestId, status: 500, level: 50 });
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
