import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

// The `dialect: "resend"` answer layer (issue 36, docs/resend.md "The dialect"): a key created with
// it reads Resend's shapes; every other key the spec's, unchanged.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let resendKey: string;
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg();
  const created = await app.request('POST', '/api/api-keys', { key: org.apiKey, body: { name: 'Resend SDK', dialect: 'resend' } });
  expect(created.status, created.text).toBe(201);
  resendKey = created.body.key;
});

const call = (key: string, method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key, body });

describe('a dump', () => {
  it('shows', async () => {
    for (const key of [org.apiKey, resendKey]) {
      const a = await call(key, 'POST', '/segments', { name: 'News' });
      console.log(a.status, a.text);
      const c = await call(key, 'POST', '/contacts', { email: 'ada@example.net', first_name: 'Ada', properties: {}, segments: [a.body.id] });
      console.log(c.status, c.text);
      console.log((await call(key, 'GET', `/segments/${a.body.id}/contacts`)).text);
      console.log((await call(key, 'GET', `/contacts/${c.body.id}`)).text);
      console.log((await call(key, 'DELETE', `/contacts/ada@example.net`)).text);
      console.log((await call(key, 'GET', `/nothing`)).text);
      console.log((await call(key, 'POST', `/templates`, { name: 'x', subject: 's', text: 'hi {{{NAME|x}}}', variables: [{ key: 'NAME', type: 'string', fallback_value: 'x' }] })).text);
      console.log((await call(key, 'GET', `/api-keys`)).text);
    }
  });
});
