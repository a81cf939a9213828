import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/keys';
import { createAudience } from '@/server/services/audiences/crud';
import { createContact } from '@/server/services/contacts/create';
import { upsertContacts } from '@/server/services/contacts/upsert';
import { applyDuePlanChanges, changePlan } from '@/server/services/plans/changes';
import type { Principal } from '@/server/services/shared/principal';
import { startTestApp, type TestApp, type TestResponse } from './support/app';

// Each cap is checked under the organization's row lock, so concurrent creations queue and the
// count each one sees is exact. On PGlite (one connection) the requests run one after the other;
// on Postgres (DATABASE_URL) they really race for the lock.
const CONCURRENT = 8;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  app.dns.a('hooks.example.com', '127.0.0.1');
});

const deps = () => app.runtime.deps;
/** The organization acting without an API key, as the dashboard does. */
const principalOf = (organizationId: string, mode: 'live' | 'test' = 'live'): Principal => ({
  organizationId, permission: 'full_access', mode, keyId: null, domainId: null, userId: null, plan: 'free', rateLimitOverride: null,
});
const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const emails = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@example.net` }));

/** The statuses of concurrent requests, sorted, and the one refusal body they share. */
function outcomes(answers: TestResponse[]) {
  const refusals = answers.filter((a) => a.status === 403);
  expect(new Set(refusals.map((a) => a.body.code))).toEqual(new Set(refusals.length ? ['PLAN_LIMIT_EXCEEDED'] : []));
  return answers.map((a) => a.status).sort();
}
const settled = async <T>(promises: Promise<T>[]) => {
  const results = await Promise.allSettled(promises);
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const r of refused) expect(r.reason).toMatchObject({ appCode: 'PLAN_LIMIT_EXCEEDED' });
  return { succeeded: results.length - refused.length, refused: refused.length };
};
const expectSuccesses = (statuses: number[], ok: number, successes: number) =>
  expect(statuses).toEqual([...Array<number>(successes).fill(ok), ...Array<number>(statuses.length - successes).fill(403)]);

const registerDomain = (key: string, name: string) => app.request('POST', '/api/domains', { key, body: { name } });
const createWebhook = (key: string) => app.request('POST', '/api/webhooks', { key, body: { url: 'http://hooks.example.com:9/hook', events: ['*'] } });
const createAudienceOf = async (organizationId: string) => (await createAudience(deps(), principalOf(organizationId), { name: 'Newsletter' })).id;

describe('on Free, concurrent creations stop exactly at the cap', () => {
  it('domains: 1', async () => {
    const { apiKey } = await app.createOrg({ plan: 'free' });
    const statuses = outcomes(await times(CONCURRENT, (i) => registerDomain(apiKey, `race${i}.example.com`)));
    expectSuccesses(statuses, 201, 1);
    // The one registered, then the shared sandbox, which the cap does not count.
    expect((await app.request('GET', '/api/domains', { key: apiKey })).body.data.map((domain: { sandbox: boolean }) => domain.sandbox)).toEqual([false, true]);
  });

  it('webhook endpoints: 1', async () => {
    const { apiKey } = await app.createOrg({ plan: 'free' });
    expectSuccesses(outcomes(await times(CONCURRENT, () => createWebhook(apiKey))), 201, 1);
    expect((await app.request('GET', '/api/webhooks', { key: apiKey })).body.data).toHaveLength(1);
  });

  it('stored contacts: 1,000, one by one and in batches', async () => {
    const { organizationId } = await app.createOrg({ plan: 'free' });
    const audience = await createAudienceOf(organizationId);
    await upsertContacts(deps(), principalOf(organizationId), audience, emails('filled', 996));
    const singles = await settled(Array.from({ length: CONCURRENT }, (_, i) => createContact(deps(), principalOf(organizationId), audience, { email: `single${i}@example.net` })));
    expect(singles).toEqual({ succeeded: 4, refused: CONCURRENT - 4 });

    const other = await app.createOrg({ plan: 'free', name: 'Other' });
    const [one, two] = [await createAudienceOf(other.organizationId), await createAudienceOf(other.organizationId)];
    const batches = await settled(Array.from({ length: CONCURRENT }, (_, i) => upsertContacts(deps(), principalOf(other.organizationId), i % 2 ? one : two, emails(`batch${i}-`, 300))));
    expect(batches).toEqual({ succeeded: 3, refused: CONCURRENT - 3 });

    const counts = await app.request('GET', '/api/audiences', { key: other.apiKey });
    expect(counts.body.data.reduce((sum: number, a: { contactCount: number }) => sum + a.contactCount, 0)).toBe(900);
  });

  it('live API keys: 1, while test keys do not count', async () => {
    const { organizationId, apiKey } = await app.createOrg({ plan: 'free' });
    // The organization's first key is its one live key: revoke it so the race starts at 0.
    const [first] = (await app.request('GET', '/api/api-keys', { key: apiKey })).body.data;
    await revokeApiKey(deps(), principalOf(organizationId), first.id);
    const live = await settled(Array.from({ length: CONCURRENT }, (_, i) => createApiKey(deps(), principalOf(organizationId), { name: `live ${i}`, mode: 'live' })));
    expect(live).toEqual({ succeeded: 1, refused: CONCURRENT - 1 });
    const test = await settled(Array.from({ length: CONCURRENT }, (_, i) => createApiKey(deps(), principalOf(organizationId), { name: `test ${i}`, mode: 'test' })));
    expect(test).toEqual({ succeeded: CONCURRENT, refused: 0 });
  });
});

describe('after a downgrade', () => {
  it('keeps every domain, endpoint, contact and key, and refuses new ones', async () => {
    const { organizationId, apiKey } = await app.createOrg({ plan: '10k' });
    for (const name of ['one.example.com', 'two.example.com', 'three.example.com']) expect((await registerDomain(apiKey, name)).status).toBe(201);
    for (let i = 0; i < 3; i += 1) expect((await createWebhook(apiKey)).status).toBe(201);
    const audience = await createAudienceOf(organizationId);
    await upsertContacts(deps(), principalOf(organizationId), audience, emails('kept', 1_200));
    const secondKey = (await createApiKey(deps(), principalOf(organizationId), { name: 'Second', mode: 'live' })).key;

    // Downgraded at the end of November; December has begun and the sweep has not run yet.
    await changePlan(deps(), organizationId, 'free');
    app.clock.set('2026-12-01T00:00:00.000Z');

    const check = async () => {
      expect((await app.request('GET', '/api/domains', { key: apiKey })).body.data.filter((domain: { sandbox: boolean }) => !domain.sandbox)).toHaveLength(3);
      expect((await app.request('GET', '/api/webhooks', { key: apiKey })).body.data).toHaveLength(3);
      expect((await app.request('GET', `/api/audiences/${audience}`, { key: apiKey })).body.contactCount).toBe(1_200);
      // Both live keys still work.
      for (const key of [apiKey, secondKey]) expect((await app.request('GET', '/api/api-keys', { key })).status).toBe(200);

      const refusals = [
        await registerDomain(apiKey, 'four.example.com'),
        await createWebhook(apiKey),
        await app.request('POST', `/api/audiences/${audience}/contacts`, { key: apiKey, body: { email: 'new@example.net' } }),
        await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'Third', mode: 'live' } }),
      ];
      expect(refusals.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([403, 'PLAN_LIMIT_EXCEEDED']));
      expect(refusals.map((r) => r.body.error)).toEqual([
        expect.stringMatching(/Free plan allows 1 domain/),
        expect.stringMatching(/Free plan allows 1 webhook endpoint/),
        expect.stringMatching(/Free plan stores 1,000 contacts across all audiences; 0 slots are left/),
        expect.stringMatching(/Free plan allows 1 live API key/),
      ]);
      // Changing a contact adds none, so it is allowed over the cap; a test key is too.
      expect((await app.request('POST', `/api/audiences/${audience}/contacts`, { key: apiKey, body: { email: 'kept0@example.net', name: 'Kept' } })).status).toBe(201);
      expect((await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'Test', mode: 'test' } })).status).toBe(201);
    };
    await check();
    expect(await applyDuePlanChanges(deps())).toBe(1);
    await check();
  });
});
