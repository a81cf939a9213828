import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(ready.body).toEqual({ status: 'ready', database: 'ok' });
  });
});
