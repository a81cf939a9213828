import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, auditEvents, domains, systemEmails } from '@/db/schema';
import { newId } from '@/server/ids';
import { admitApiKey, hashKey } from '@/server/services/api-keys/admission';
import { sweepSystemEmails } from '@/server/services/system-mail/queue';
import { createSystemMailer } from '@/server/mail/system-mailer';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { startSmtpSink } from './support/smtp';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
  app = await startTestApp({ systemMailer: createSystemMailer({ relayUrl: smtp.url, dnsServers: [], mxPort: 25, heloName: 'mx.eumail.example' }) });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});
beforeEach(async () => {
  await app.reset();
  smtp.messages.length = 0;
});

describe('POST /api-keys', () => {
  it('creates a key shown once, 256 random bits, stored only as a hash', async () => {
    const { apiKey } = await app.createOrg();
    const created = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'Production' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      name: 'Production',
      key: expect.stringMatching(/^eu_live_[A-Za-z0-9_-]{43}$/),
      tokenStart: created.body.key.slice(0, 12),
      permission: 'full_access',
      mode: 'live',
      domainId: null,
      dialect: 'spec',
      createdAt: '2026-11-21T10:00:00.000Z',
      lastUsedAt: null,
    });
    expect(Buffer.from(created.body.key.slice(8), 'base64url')).toHaveLength(32);
    const [stored] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
    expect(stored!.keyHash).toBe(hashKey(created.body.key));
    expect(JSON.stringify(stored)).not.toContain(created.body.key.slice(12));
    const listed = await app.request('GET', '/api/api-keys', { key: apiKey });
    expect(listed.text).not.toContain(created.body.key);
    expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(['Production', 'Default key']);
    // The new key works at once.
    expect((await app.request('GET', '/api/api-keys', { key: created.body.key })).status).toBe(200);
  });

  it('validates the body strictly, naming the offending property', async () => {
    const { apiKey } = await app.createOrg();
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'x', scope: 'all' }, /scope/],
      [{}, /name/],
      [{ name: '' }, /name/],
      [{ name: 'x', permission: 'admin' }, /permission/],
      [{ name: 'x', domain_id: 'not-a-uuid' }, /domain_id/],
      [{ name: 'x', mode: 'prod' }, /mode/],
      [[{ name: 'x' }], /JSON object/],
      ['just text', /JSON object/],
    ];
    for (const [body, message] of cases) {
      const response = await app.request('POST', '/api/api-keys', { key: apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.error).toMatch(message);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'error']);
    }
  });

  it('takes domain_id only with sending_access, and only for a domain of the organization', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const other = await app.createOrg({ name: 'Other' });
    const domainId = newId();
    const foreignDomainId = newId();
    await app.runtime.deps.db.insert(domains).values([
      { id: domainId, organizationId, name: 'acme.test', createdAt: app.clock.now() },
      { id: foreignDomainId, organizationId: other.organizationId, name: 'other.test', createdAt: app.clock.now() },
    ]);
    const withFull = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'x', domain_id: domainId } });
    expect(withFull.status).toBe(400);
    expect(withFull.body).toEqual({ error: expect.stringMatching(/domain_id/), code: 'VALIDATION_ERROR' });
    const explicitFull = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'x', permission: 'full_access', domain_id: domainId } });
    expect(explicitFull.status).toBe(400);
    const foreign = await app.request('POST', '/api/api-keys', {
      key: apiKey,
      body: { name: 'x', permission: 'sending_access', domain_id: foreignDomainId },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const pinned = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'x', permission: 'sending_access', domain_id: domainId } });
    expect(pinned.status).toBe(201);
    expect(pinned.body).toMatchObject({ permission: 'sending_access', domainId });
  });

  it('lets a test key create test keys only', async () => {
    const { organizationId } = await app.createOrg();
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    const implicit = await app.request('POST', '/api/api-keys', { key: testKey, body: { name: 'child' } });
    expect(implicit.status).toBe(201);
    expect(implicit.body.mode).toBe('test');
    expect(implicit.body.key).toMatch(/^eu_test_/);
    const live = await app.request('POST', '/api/api-keys', { key: testKey, body: { name: 'escalate', mode: 'live' } });
    expect(live.status).toBe(403);
    expect(live.body.code).toBe('FORBIDDEN');
    const listed = await app.request('GET', '/api/api-keys', { key: testKey });
    expect(listed.body.data.every((k: { mode: string }) => k.mode === 'test')).toBe(true);
  });

  it('allows one live key on Free (403 PLAN_LIMIT_EXCEEDED), test keys aside, even under concurrent requests', async () => {
    const { apiKey } = await app.createOrg({ plan: 'free' });
    const second = await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'second' } });
    expect(second.status).toBe(403);
    expect(second.body.code).toBe('PLAN_LIMIT_EXCEEDED');
    expect((await app.request('POST', '/api/api-keys', { key: apiKey, body: { name: 'test one', mode: 'test' } })).status).toBe(201);

    const fresh = await app.createOrg({ plan: 'free', name: 'Fresh' });
    const list = await app.request('GET', '/api/api-keys', { key: fresh.apiKey });
    const testKey = await app.request('POST', '/api/api-keys', { key: fresh.apiKey, body: { name: 't', mode: 'test' } });
    expect(testKey.status).toBe(201);
    // Free up the single slot, then race five creations for it from a key that stays valid.
    const defaultId = list.body.data[0].id;
    await app.request('DELETE', `/api/api-keys/${defaultId}`, { key: fresh.apiKey });
    const { createApiKey } = await import('@/server/services/api-keys/keys');
    const principal = { organizationId: fresh.organizationId, permission: 'full_access' as const, mode: 'live' as const, keyId: null, domainId: null, userId: null, plan: 'free', rateLimitOverride: null };
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => createApiKey(app.runtime.deps, principal, { name: `race ${i}` })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('revokes at once: the next request with the key gets 401, and the owner is emailed', async () => {
    const { organizationId, apiKey } = await app.createOrg({ ownerEmail: 'boss@acme.test' });
    const victim = await keyFor(app, organizationId, 'sending_access', 'live');
    const id = (await app.request('GET', '/api/api-keys', { key: apiKey })).body.data.find((k: { name: string }) => k.name === 'sending_access-live').id;
    const revoked = await app.request('DELETE', `/api/api-keys/${id}`, { key: apiKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ message: 'API key revoked' });
    expect((await app.request('POST', '/api/api-keys', { key: victim, body: { name: 'x' } })).status).toBe(401);
    expect((await app.request('DELETE', `/api/api-keys/${id}`, { key: apiKey })).status).toBe(404);
    expect((await app.request('GET', '/api/api-keys', { key: apiKey })).body.data.map((k: { id: string }) => k.id)).not.toContain(id);

    expect(await sweepSystemEmails(app.runtime.deps)).toBe(1);
    await smtp.waitFor(1);
    expect(smtp.messages[0]!.to).toEqual(['boss@acme.test']);
    const mail = await simpleParser(smtp.messages[0]!.raw);
    expect(mail.subject).toBe('API key "sending_access-live" was revoked');
    expect(mail.text).toContain('Requests made with it are refused from now on');
    expect(mail.html).toContain('sending_access-live');
    const [row] = await app.runtime.deps.db.select().from(systemEmails);
    expect(row!.status).toBe('sent');
  });

  it('does not email for a test key, and a test key cannot revoke a live key', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    const all = (await app.request('GET', '/api/api-keys', { key: apiKey })).body.data as Array<{ id: string; mode: string }>;
    const live = all.find((k) => k.mode === 'live')!;
    const test = all.find((k) => k.mode === 'test')!;
    const refused = await app.request('DELETE', `/api/api-keys/${live.id}`, { key: testKey });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await app.request('GET', '/api/api-keys', { key: apiKey })).status).toBe(200);
    expect((await app.request('DELETE', `/api/api-keys/${test.id}`, { key: apiKey })).status).toBe(200);
    expect(await app.runtime.deps.db.select().from(systemEmails)).toHaveLength(0);
  });

  it('answers 400 for an id that is not a UUID, and 404 for an unknown one', async () => {
    const { apiKey } = await app.createOrg();
    const bad = await app.request('DELETE', '/api/api-keys/nope', { key: apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    const unknown = await app.request('DELETE', `/api/api-keys/${newId()}`, { key: apiKey });
    expect(unknown.status).toBe(404);
  });
});

describe('last used', () => {
  const listed = async (key: string) => (await app.request('GET', '/api/api-keys', { key })).body.data as Array<{ id: string; name: string; lastUsedAt: string | null }>;
  const lastUsedOf = async (name: string, key: string) => (await listed(key)).find((k) => k.name === name)!.lastUsedAt;

  it('is when the key last authenticated, written at most once a minute per key', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const other = await keyFor(app, organizationId, 'sending_access', 'live');
    const start = app.clock.now().getTime();
    const at = (ms: number) => new Date(start + ms).toISOString();
    // The list request is itself a use: admission writes the time before the list reads it.
    expect(await lastUsedOf('Default key', apiKey)).toBe(at(0));
    expect(await lastUsedOf('sending_access-live', apiKey)).toBeNull();

    app.clock.advance(30_000);
    expect(await lastUsedOf('Default key', apiKey)).toBe(at(0));
    app.clock.advance(29_999);
    expect(await lastUsedOf('Default key', apiKey)).toBe(at(0));
    app.clock.advance(1);
    expect(await lastUsedOf('Default key', apiKey)).toBe(at(60_000));

    // The SMTP gateway's login goes through the same admission: the sending key is used now.
    app.clock.advance(5_000);
    expect(await admitApiKey(app.runtime.deps, other)).not.toBeNull();
    expect(await lastUsedOf('sending_access-live', apiKey)).toBe(at(65_000));
  });

  it('is written by a request the key may not make too (it authenticated, then got 403), never by a revoked key', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    await app.runtime.deps.db.update(apiKeys).set({ lastUsedAt: null });
    const victim = await keyFor(app, organizationId, 'full_access', 'live');
    const id = (await listed(apiKey)).find((k) => k.name === 'full_access-live')!.id;
    expect((await app.request('DELETE', `/api/api-keys/${id}`, { key: apiKey })).status).toBe(200);
    app.clock.advance(120_000);
    expect((await app.request('GET', '/api/api-keys', { key: victim })).status).toBe(401);
    const [revoked] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(revoked!.lastUsedAt).toBeNull();

    await app.runtime.deps.db.update(apiKeys).set({ lastUsedAt: null });
    const forbidden = await app.request('GET', '/api/api-keys', { key: await keyFor(app, organizationId, 'sending_access', 'live') });
    expect(forbidden.status).toBe(403);
    expect(await lastUsedOf('sending_access-live', apiKey)).toBe(app.clock.now().toISOString());
  });
});

describe('renaming a key (tRPC apiKeys.rename: the spec names no REST path)', () => {
  const rename = (key: string, input: unknown) => app.request('POST', '/api/trpc/apiKeys.rename', { key, body: input });

  it('changes the name only, records it in the audit log once, and leaves the secret working', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const [key] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.organizationId, organizationId));
    const renamed = await rename(apiKey, { id: key!.id, name: '  Production backend ' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.result.data).toMatchObject({ id: key!.id, name: 'Production backend', tokenStart: key!.tokenStart, permission: 'full_access', mode: 'live' });
    // The same name again is no change and is not recorded.
    expect((await rename(apiKey, { id: key!.id, name: 'Production backend' })).status).toBe(200);
    const listed = await app.request('GET', '/api/api-keys', { key: apiKey });
    expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(['Production backend']);

    const entries = await app.runtime.deps.db.select().from(auditEvents).where(eq(auditEvents.action, 'api_key.renamed'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      organizationId,
      actorKind: 'api_key',
      actorId: key!.id,
      // The actor renamed itself: its label reads as it now stands.
      actorLabel: `Production backend (${key!.tokenStart}…)`,
      targetType: 'api_key',
      targetId: key!.id,
      targetLabel: `Production backend (${key!.tokenStart}…)`,
      details: { name: { from: 'Default key', to: 'Production backend' } },
    });
  });

  it('refuses an empty or long name (400), another organization\'s key (404), a live key from a test key and any call from a sending key (403), and has no REST path', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const other = await app.createOrg({ name: 'Other' });
    const [key] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.organizationId, organizationId));
    const [foreign] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.organizationId, other.organizationId));

    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const refused = await rename(apiKey, { id: key!.id, name });
      expect(refused.status, name).toBe(400);
      expect(refused.body.error.data.envelope.code).toBe('VALIDATION_ERROR');
      expect(refused.body.error.data.envelope.error).toMatch(/^name: /);
    }
    const unknown = await rename(apiKey, { id: foreign!.id, name: 'Mine now' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.data.envelope.code).toBe('NOT_FOUND');

    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    const fromTest = await rename(testKey, { id: key!.id, name: 'Renamed by a test key' });
    expect(fromTest.status).toBe(403);
    expect(fromTest.body.error.data.envelope.code).toBe('FORBIDDEN');
    const sending = await keyFor(app, organizationId, 'sending_access', 'live');
    expect((await rename(sending, { id: key!.id, name: 'Renamed by a sending key' })).status).toBe(403);
    // A test key may rename a test key, as it may revoke one.
    const testId = (await app.request('GET', '/api/api-keys', { key: testKey })).body.data[0].id;
    expect((await rename(testKey, { id: testId, name: 'CI' })).status).toBe(200);

    expect((await app.request('PATCH', `/api/api-keys/${key!.id}`, { key: apiKey, body: { name: 'REST' } })).status).toBe(405);
    const [unchanged] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key!.id));
    const [foreignAfter] = await app.runtime.deps.db.select().from(apiKeys).where(eq(apiKeys.id, foreign!.id));
    expect([unchanged!.name, foreignAfter!.name]).toEqual(['Default key', 'Default key']);
  });
});
