import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BATCH_CALLS } from '@/server/http/trpc';
import { DASHBOARD_CALLS_PER_WINDOW } from '@/server/services/plans/rate-limits-dashboard';
import { startTestApp, type TestApp } from './support/app';
import { signUpPerson } from './support/dashboard-session';

// Issue 28, point 3: a tRPC batch counts each of its calls, has a maximum size, and bodies have the REST routes' limits.

const BODY_LIMIT = 64 * 1024;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());

/** The org's API window: 100 requests in 10 s (plan-table.ts). */
const WINDOW_LIMIT = 100;

const batchPath = (procedure: string, calls: number) => `/api/trpc/${Array.from({ length: calls }, () => procedure).join(',')}?batch=1`;

async function getBatch(calls: number, headers: Record<string, string>) {
  const input = Object.fromEntries(Array.from({ length: calls }, (_, index) => [index, {}]));
  const response = await fetch(`${app.url}${batchPath('domains.list', calls)}&input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('tRPC batches and the rate limit', () => {
  it(`refuses a batch of more than ${MAX_BATCH_CALLS} calls before running any, and counts none of it`, async () => {
    const { apiKey } = await app.createOrg();
    const refused = await getBatch(150, { authorization: `Bearer ${apiKey}` });
    expect(refused.status).toBe(400);
    // tRPC answers a batch-level refusal in one envelope, not per call.
    expect(JSON.stringify(refused.body)).toMatch(/Batch call exceeds maximum size/);
    // Nothing was counted: the key still has its whole window.
    const rest = await app.request('GET', '/api/domains', { key: apiKey });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('ratelimit-remaining')).toBe(String(WINDOW_LIMIT - 1));
  });

  it('counts each call of a batch: two batches of 50 fill the window, and REST right after is 429', async () => {
    const { apiKey } = await app.createOrg();
    const auth = { authorization: `Bearer ${apiKey}` };
    const first = await getBatch(MAX_BATCH_CALLS, auth);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(MAX_BATCH_CALLS);
    const second = await getBatch(MAX_BATCH_CALLS, auth);
    expect(second.status).toBe(200);
    const rest = await app.request('GET', '/api/domains', { key: apiKey });
    expect(rest.status).toBe(429);
    expect(rest.body).toMatchObject({ code: 'RATE_LIMITED' });
    // And a single call through tRPC too.
    expect((await getBatch(1, auth)).status).toBe(429);
    app.clock.advance(10_000);
    expect((await app.request('GET', '/api/domains', { key: apiKey })).status).toBe(200);
  });

  it('refuses a whole batch that does not fit what is left of the window, taking no place', async () => {
    const { apiKey } = await app.createOrg();
    const auth = { authorization: `Bearer ${apiKey}` };
    for (let index = 0; index < 60; index += 1) expect((await app.request('GET', '/api/domains', { key: apiKey })).status).toBe(200);
    const refused = await getBatch(MAX_BATCH_CALLS, auth);
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.body)).toMatch(/RATE_LIMITED/);
    // The 40 places left are all still there.
    expect((await getBatch(40, auth)).status).toBe(200);
    expect((await app.request('GET', '/api/domains', { key: apiKey })).status).toBe(429);
  });

  it('counts the dashboard session per organization in its own window', async () => {
    const person = await signUpPerson(app, 'ada@example.test');
    const cookie = { cookie: person.cookie };
    // signUpPerson's own organization.current took one place.
    const full = Math.floor((DASHBOARD_CALLS_PER_WINDOW - 1) / MAX_BATCH_CALLS);
    for (let batch = 0; batch < full; batch += 1) expect((await getBatch(MAX_BATCH_CALLS, cookie)).status).toBe(200);
    const left = DASHBOARD_CALLS_PER_WINDOW - 1 - full * MAX_BATCH_CALLS;
    if (left > 0) expect((await getBatch(left, cookie)).status).toBe(200);
    const refused = await getBatch(1, cookie);
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.body)).toMatch(/RATE_LIMITED/);
    // API keys count in their own window: a full dashboard window does not touch it.
    const key = await app.request('GET', '/api/domains', { key: (await app.createOrg()).apiKey });
    expect(key.status).toBe(200);
    app.clock.advance(10_000);
    expect((await getBatch(1, cookie)).status).toBe(200);
  });
});

describe('tRPC bodies', () => {
  const bigName = 'a'.repeat(BODY_LIMIT * 2);

  it('holds a procedure to its REST route limit: a body past it on domains.create is 413', async () => {
    const { apiKey } = await app.createOrg();
    const response = await fetch(`${app.url}/api/trpc/domains.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: bigName }),
    });
    expect(response.status).toBe(413);
    expect(JSON.stringify(await response.json())).toMatch(/PAYLOAD_TOO_LARGE/);
    // The same through REST: the same limit.
    expect((await app.request('POST', '/api/domains', { key: apiKey, body: { name: bigName } })).status).toBe(413);
  });

  it('still takes a large body on a procedure whose REST route takes it (templates.create)', async () => {
    const { apiKey } = await app.createOrg();
    const response = await fetch(`${app.url}/api/trpc/templates.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Big', subject: 'Hi', html: `<p>${bigName}</p>` }),
    });
    expect(response.status, await response.text()).not.toBe(413);
  });
});
