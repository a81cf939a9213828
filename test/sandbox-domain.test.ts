import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSandboxDomain, loadConfig } from '@/server/config';
import { sandboxDomainId } from '@/server/services/domains/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

// Issue 29, point 1: the sandbox exists by default and every organization lists it
// (docs/domains.md, "Sandbox domain"). Who may send from it: test/sandbox-access.test.ts.

describe('the sandbox name when SANDBOX_DOMAIN is unset', () => {
  it.each([
    ['http://localhost:3000', 'sandbox.localhost'],
    ['https://mail.example.eu', 'sandbox.mail.example.eu'],
    ['https://MAIL.Example.EU.:8443/', 'sandbox.mail.example.eu'],
    ['http://127.0.0.1:3000', 'sandbox.localhost'],
    ['http://[::1]:3000', 'sandbox.localhost'],
  ])('APP_URL %s gives %s', (appUrl, sandbox) => {
    expect(loadConfig({ APP_URL: appUrl }).sandboxDomain).toBe(sandbox);
  });

  it('is SANDBOX_DOMAIN when set (lowercased, without a trailing dot); with APP_URL unset, from localhost', () => {
    expect(loadConfig({ APP_URL: 'https://mail.example.eu', SANDBOX_DOMAIN: 'Try.Example.EU.' }).sandboxDomain).toBe('try.example.eu');
    expect(loadConfig({}).sandboxDomain).toBe('sandbox.localhost');
    expect(defaultSandboxDomain('192.0.2.1')).toBe('sandbox.localhost');
  });
});

describe('GET /domains and the sandbox', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.reset();
  });

  const SANDBOX_ID = sandboxDomainId('sandbox.localhost');
  const list = async (key: string) => (await app.request('GET', '/api/domains', { key })).body.data as Array<Record<string, unknown>>;

  it('lists it in every organization, verified, with one stable id, since the organization was created', async () => {
    const first = await app.createOrg({ name: 'One', createdAt: new Date('2026-01-05T10:00:00.000Z') });
    const second = await app.createOrg({ name: 'Two', ownerEmail: 'owner@two.test' });
    expect(await list(first.apiKey)).toEqual([
      {
        id: SANDBOX_ID,
        name: 'sandbox.localhost',
        status: 'verified',
        sandbox: true,
        isPolling: false,
        lastCheckedAt: null,
        nextCheckAt: null,
        missingRecords: [],
        createdAt: '2026-01-05T10:00:00.000Z',
      },
    ]);
    expect((await list(second.apiKey)).map((domain) => domain.id)).toEqual([SANDBOX_ID]);
    // A test key reads it too, and a restart derives the same id from the same name.
    expect((await list(await keyFor(app, first.organizationId, 'full_access', 'test'))).map((domain) => domain.id)).toEqual([SANDBOX_ID]);
    expect(app.runtime.deps.sandbox.id).toBe(SANDBOX_ID);
  });

  it("comes after the organization's own domains, which stay newest first", async () => {
    const { apiKey } = await app.createOrg();
    const older = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'older.example.com' } });
    const newer = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'newer.example.com' } });
    expect((await list(apiKey)).map((domain) => [domain.id, domain.sandbox])).toEqual([
      [newer.body.id, false],
      [older.body.id, false],
      [SANDBOX_ID, true],
    ]);
  });

  it("does not count against the plan's domain cap", async () => {
    const { apiKey } = await app.createOrg({ plan: 'free' });
    const own = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'acme.example.com' } });
    expect(own.status, own.text).toBe(201);
    expect(await list(apiKey)).toHaveLength(2);
    const second = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'second.example.com' } });
    expect(second.body).toEqual({ error: 'The Free plan allows 1 domain; delete one or upgrade', code: 'PLAN_LIMIT_EXCEEDED' });
  });

  it('reads as a verified domain with its DKIM key and nothing for the customer to publish', async () => {
    const { apiKey } = await app.createOrg();
    const detail = await app.request('GET', `/api/domains/${SANDBOX_ID}`, { key: apiKey });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body).toMatchObject({ id: SANDBOX_ID, name: 'sandbox.localhost', status: 'verified', sandbox: true, records: [], dkim: { selector: 'eusandbox' } });
    expect(detail.body.dkim.publicKey).toBe(app.runtime.deps.sandbox.publicKey);
    expect((await app.request('GET', `/api/domains/${SANDBOX_ID}/domain-connect`, { key: apiKey })).body).toEqual({ supported: false, reason: expect.stringContaining('sandbox') });
  });

  it('answers 409 CONFLICT to DELETE and verify, and stays listed', async () => {
    const { apiKey } = await app.createOrg();
    for (const [method, path] of [
      ['DELETE', `/api/domains/${SANDBOX_ID}`],
      ['POST', `/api/domains/${SANDBOX_ID}/verify`],
    ] as const) {
      const refused = await app.request(method, path, { key: apiKey });
      expect(refused.status, `${method} ${path}`).toBe(409);
      expect(refused.body).toEqual({ error: expect.stringContaining('shared sandbox domain'), code: 'CONFLICT' });
    }
    expect((await list(apiKey)).map((domain) => domain.id)).toEqual([SANDBOX_ID]);
  });

  it('cannot be the domain a key is pinned to (a pinned key may not send from it): 400', async () => {
    const { apiKey } = await app.createOrg();
    const refused = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'pinned', permission: 'sending_access', domain_id: SANDBOX_ID } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.stringContaining('shared sandbox domain'), code: 'VALIDATION_ERROR' });
  });
});
