import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { fillPath, ROUTES } from './tables/routes';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

describe("another organization's ids answer 404 on every route", () => {
  for (const route of ROUTES.filter((r) => r.foreign)) {
    it(`${route.method} ${route.path}`, async () => {
      const owner = await app.createOrg({ name: 'Owner' });
      const intruder = await app.createOrg({ name: 'Intruder' });
      const params = await route.foreign!({ app, organizationId: owner.organizationId, mode: 'live' });
      const prepared = (await route.prepare?.({ app, organizationId: intruder.organizationId, mode: 'live' })) ?? {};
      const response = await app.request(route.method, `/api${fillPath(route.path, params)}`, { key: intruder.apiKey, body: prepared.body });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
      // The owner still has it: nothing was changed by the refused call.
      const again = await app.request(route.method === 'DELETE' ? 'DELETE' : route.method, `/api${fillPath(route.path, params)}`, {
        key: owner.apiKey,
        body: route.foreignBody ? await route.foreignBody({ app, organizationId: owner.organizationId, mode: 'live' }) : prepared.body,
      });
      expect(again.status).toBeLessThan(300);
    });
  }
});
