import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/routers';
import { PLAIN_ROUTES } from '@/server/routers/plain';
import { buildRouteTable } from '@/server/http/routes';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { fillPath, ROUTES } from './tables/routes';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const callers = [
  { permission: 'full_access', mode: 'live' },
  { permission: 'full_access', mode: 'test' },
  { permission: 'sending_access', mode: 'live' },
  { permission: 'sending_access', mode: 'test' },
] as const;

describe('route table', () => {
  it('lists every authenticated route the API serves, and nothing it does not', () => {
    const served = buildRouteTable(appRouter, PLAIN_ROUTES)
      .filter((route) => !route.path.startsWith('/health'))
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    expect(ROUTES.map((route) => `${route.method} ${route.path}`).sort()).toEqual(served);
  });
});

describe('permission matrix: every route x full/sending x live/test', () => {
  for (const route of ROUTES) {
    for (const caller of callers) {
      const refused = (caller.permission === 'sending_access' && !route.sendingAccess) || (caller.mode === 'test' && (route.liveWrite || route.liveOnly === true));
      it(`${route.method} ${route.path} with ${caller.permission} ${caller.mode}: ${refused ? '403 FORBIDDEN' : 'allowed'}`, async () => {
        const { organizationId } = await app.createOrg();
        const key = await keyFor(app, organizationId, caller.permission, caller.mode);
        const prepared = (await route.prepare?.({ app, organizationId, mode: caller.mode })) ?? {};
        const response = await app.request(route.method, `/api${fillPath(route.path, prepared.params)}`, { key, body: prepared.body });
        if (refused) {
          expect(response.status).toBe(403);
          expect(response.body).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
        } else {
          expect(response.status, response.text).toBeLessThan(300);
        }
      });
    }
  }

  it('refuses every route without a key, with a malformed key and with a revoked key (401)', async () => {
    const { organizationId } = await app.createOrg();
    const revoked = await keyFor(app, organizationId, 'full_access', 'live');
    const list = await app.request('GET', '/api/api-keys', { key: revoked });
    const id = (list.body.data as Array<{ id: string; name: string }>).find((k) => k.name === 'full_access-live')!.id;
    expect((await app.request('DELETE', `/api/api-keys/${id}`, { key: revoked })).status).toBe(200);
    for (const route of ROUTES) {
      const unknown = '01900000-0000-7000-8000-000000000000';
      const path = `/api${fillPath(route.path, { id: unknown, attachmentId: unknown, deliveryId: unknown, contactId: unknown, idOrEmail: unknown, segmentId: unknown, email: 'ada@example.net', identifier: unknown, runId: unknown })}`;
      for (const key of [undefined, 'eu_live_short', `eu_prod_${'a'.repeat(43)}`, revoked]) {
        const response = await app.request(route.method, path, { key, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
        expect(response.status, `${route.method} ${path} with ${String(key)}`).toBe(401);
        expect(response.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' });
        expect(response.headers.get('x-request-id')).toBeTruthy();
      }
    }
  });
});
