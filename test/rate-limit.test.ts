import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '@/server/services/audit/record';
import { setRateLimit } from '@/server/services/organizations/organizations';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let second: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  second = await startTestApp({ shareDatabaseWith: app });
});
afterAll(async () => {
  await second.close();
  await app.close();
});
beforeEach(() => app.reset());

/** Sends `count` requests one after another at the current clock time; returns their statuses. */
async function burst(target: TestApp, key: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await target.request('GET', '/api/api-keys', { key })).status);
  return statuses;
}

const tally = (statuses: number[]) => ({ ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length });

describe('100 requests per sliding 10-second window per organization', () => {
  it('refuses the 101st with 429 RATE_LIMITED, Retry-After and RateLimit-* headers', async () => {
    const { apiKey } = await app.createOrg();
    const first = await app.request('GET', '/api/api-keys', { key: apiKey });
    expect(first.headers.get('ratelimit-limit')).toBe('100');
    expect(first.headers.get('ratelimit-remaining')).toBe('99');
    expect(first.headers.get('ratelimit-policy')).toBe('100;w=10');
    expect(tally(await burst(app, apiKey, 99))).toEqual({ ok: 99, limited: 0 });
    app.clock.advance(4_000);
    const refused = await app.request('GET', '/api/api-keys', { key: apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'RATE_LIMITED' });
    expect(refused.headers.get('retry-after')).toBe('6');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-request-id')).toBeTruthy();
  });

  it('is exact across a window boundary: no 10-second span ever lets 101 through', async () => {
    const { apiKey } = await app.createOrg();
    expect(tally(await burst(app, apiKey, 60))).toEqual({ ok: 60, limited: 0 }); // t = 0
    app.clock.advance(6_000);
    expect(tally(await burst(app, apiKey, 40))).toEqual({ ok: 40, limited: 0 }); // t = 6 s
    app.clock.advance(3_999);
    expect(tally(await burst(app, apiKey, 1))).toEqual({ ok: 0, limited: 1 }); // t = 9.999 s: all 100 still inside
    app.clock.advance(1);
    expect(tally(await burst(app, apiKey, 61))).toEqual({ ok: 60, limited: 1 }); // t = 10 s: the first 60 left
    app.clock.advance(5_999);
    expect(tally(await burst(app, apiKey, 1))).toEqual({ ok: 0, limited: 1 }); // t = 15.999 s
    app.clock.advance(1);
    expect(tally(await burst(app, apiKey, 41))).toEqual({ ok: 40, limited: 1 }); // t = 16 s: the 40 of t = 6 s left
  });

  it('counts per organization, and refused requests do not extend the block', async () => {
    const a = await app.createOrg({ name: 'A' });
    const b = await app.createOrg({ name: 'B' });
    await burst(app, a.apiKey, 100);
    expect(tally(await burst(app, a.apiKey, 20))).toEqual({ ok: 0, limited: 20 });
    expect(tally(await burst(app, b.apiKey, 100))).toEqual({ ok: 100, limited: 0 });
    app.clock.advance(10_000);
    expect(tally(await burst(app, a.apiKey, 1))).toEqual({ ok: 1, limited: 0 });
  });

  it('is shared by every process on the same database', async () => {
    const { apiKey } = await app.createOrg();
    second.clock.set(app.clock.now());
    const [here, there] = await Promise.all([burst(app, apiKey, 60), burst(second, apiKey, 60)]);
    expect(tally([...here, ...there])).toEqual({ ok: 100, limited: 20 });
  });

  it('counts each organization exactly when requests of many organizations and keys are admitted together', async () => {
    // Concurrent requests share admission statements (one per organization per statement); two
    // keys of one organization draw on the same window, from both processes.
    second.clock.set(app.clock.now());
    const orgs = await Promise.all(['A', 'B', 'C'].map((name) => app.createOrg({ name })));
    const keys = await Promise.all(
      orgs.map(async (org) => {
        await setRateLimit(app.runtime.deps, org.organizationId, 30, OPERATOR);
        const other = await app.request('POST', '/api/api-keys', { key: org.apiKey, body: { name: 'second' } });
        return [org.apiKey, other.body.key as string];
      }),
    );
    const requests = keys.flatMap((pair, org) =>
      Array.from({ length: 40 }, (_, i) => ({ org, target: i % 2 ? second : app, key: pair[i % 4 < 2 ? 0 : 1]! })),
    );
    const statuses = await Promise.all(requests.map(({ target, key }) => target.request('GET', '/api/api-keys', { key }).then((r) => r.status)));
    for (let org = 0; org < orgs.length; org++) {
      // The second key's creation took one place of the window.
      expect(tally(statuses.filter((_, i) => requests[i]!.org === org))).toEqual({ ok: 29, limited: 11 });
    }
    // An unknown key among them is refused alone; the others are let in.
    const mixed = await Promise.all([orgs[0]!.apiKey, `eu_live_${'x'.repeat(43)}`, orgs[1]!.apiKey].map((key) => second.request('GET', '/api/api-keys', { key }).then((r) => r.status)));
    expect(mixed).toEqual([429, 401, 429]);
    app.clock.advance(10_000);
    second.clock.set(app.clock.now());
    const later = await Promise.all([orgs[0]!.apiKey, `eu_live_${'x'.repeat(43)}`, orgs[1]!.apiKey].map((key) => app.request('GET', '/api/api-keys', { key }).then((r) => r.status)));
    expect(later).toEqual([200, 401, 200]);
  });

  it('follows the limit an operator set for the organization', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    await setRateLimit(app.runtime.deps, organizationId, 150, OPERATOR);
    expect(tally(await burst(app, apiKey, 151))).toEqual({ ok: 150, limited: 1 });
  });

  it('does not count requests that fail authentication', async () => {
    const { apiKey } = await app.createOrg();
    await Promise.all(Array.from({ length: 20 }, () => app.request('GET', '/api/api-keys', { key: `${apiKey.slice(0, -1)}x` })));
    expect(tally(await burst(app, apiKey, 100))).toEqual({ ok: 100, limited: 0 });
  });
});

describe('revocation across processes', () => {
  it('refuses a key revoked through one server on the very next request to another', async () => {
    const { apiKey } = await app.createOrg();
    const victim = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'victim' } });
    expect((await second.request('GET', '/api/api-keys', { key: victim.body.key })).status).toBe(200);
    expect((await app.request('DELETE', `/api/api-keys/${victim.body.id}`, { key: apiKey })).status).toBe(200);
    expect((await second.request('GET', '/api/api-keys', { key: victim.body.key })).status).toBe(401);
  });
});
