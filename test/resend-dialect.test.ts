import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { snakeCase, toResendAnswer } from '@/server/http/dialect/resend-shape';
import { startTestApp, type TestApp } from './support/app';

// The `dialect: "resend"` answer layer (issue 36, docs/resend.md "The dialect"): a key created with
// it reads Resend's shapes; every other key the spec's, unchanged. Resend's own SDK against it:
// test/resend-sdk.test.ts.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
});
afterAll(() => app.close());

let org: { organizationId: string; apiKey: string };
let resendKey: string;
beforeEach(async () => {
  await app.reset();
  org = await app.createOrg();
  app.dns.a('hooks.example.com', '127.0.0.1');
  const created = await app.request('POST', '/api/api-keys', { key: org.apiKey, body: { name: 'Resend SDK', dialect: 'resend' } });
  expect(created.status, created.text).toBe(201);
  resendKey = created.body.key;
});

const call = (key: string, method: string, path: string, body?: unknown) => app.request(method, `/api${path}`, { key, body });

describe('the dialect of a key', () => {
  it('is chosen at creation (spec by default), answered by the creation and the list, and refused when unknown, in {error, code}', async () => {
    const plain = await call(org.apiKey, 'POST', '/api-keys', { name: 'Plain' });
    expect(plain.body.dialect).toBe('spec');
    const listed = await call(org.apiKey, 'GET', '/api-keys');
    expect(listed.body.data.map((key: { name: string; dialect: string }) => [key.name, key.dialect])).toEqual([
      ['Plain', 'spec'],
      ['Resend SDK', 'resend'],
      ['Default key', 'spec'],
    ]);
    for (const dialect of ['Resend', 'graphql', '', 1, null]) {
      const refused = await call(org.apiKey, 'POST', '/api-keys', { name: 'X', dialect });
      expect(refused.status, JSON.stringify(dialect)).toBe(400);
      expect(refused.body).toEqual({ error: expect.stringMatching(/^dialect: /), code: 'VALIDATION_ERROR' });
    }
    // A resend key's own refusal of the same request is in Resend's shape.
    const refused = await call(resendKey, 'POST', '/api-keys', { name: 'X', dialect: 'soap' });
    expect(refused.body).toEqual({ statusCode: 400, name: 'validation_error', message: expect.stringMatching(/^dialect: /) });
  });
});

describe('a spec key', () => {
  it('reads the spec’s answers, unchanged: camelCase, nextCursor, {error, code}', async () => {
    const audience = await call(org.apiKey, 'POST', '/audiences', { name: 'News' });
    expect(audience.body).toEqual({ id: expect.any(String), name: 'News', contactCount: 0, sunsetAfterMonths: null, sunsetReengagement: null, createdAt: app.clock.now().toISOString() });
    const contact = await call(org.apiKey, 'POST', `/audiences/${audience.body.id}/contacts`, { email: 'ada@example.net', name: 'Ada' });
    const page = await call(org.apiKey, 'GET', `/audiences/${audience.body.id}/contacts`);
    expect(page.text).toBe(JSON.stringify({ data: [contact.body], nextCursor: null }));
    expect((await call(org.apiKey, 'GET', '/templates/0190c1de-0000-7000-8000-000000000000')).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
    expect((await call(org.apiKey, 'GET', '/logs')).body).toEqual({ error: 'No route for GET /logs', code: 'NOT_FOUND' });
    // Resend's `after` is not a spec key's parameter.
    expect((await call(org.apiKey, 'GET', `/templates?after=${audience.body.id}`)).status).toBe(400);
  });
});

describe('a resend key', () => {
  it('reads a page as { object: "list", has_more, data } with snake_case items, and pages on with `after`', async () => {
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await call(resendKey, 'POST', '/templates', { name, subject: 'S', text: 'x' })).body.id);
    const first = await call(resendKey, 'GET', '/templates?limit=2');
    expect(first.body).toEqual({
      object: 'list',
      has_more: true,
      data: [expect.objectContaining({ id: ids[2], name: 'C', created_at: expect.any(String), published_at: expect.any(String) }), expect.objectContaining({ id: ids[1] })],
      next_cursor: ids[1],
    });
    expect(first.body.data[0]).not.toHaveProperty('createdAt');
    const second = await call(resendKey, 'GET', `/templates?limit=2&after=${ids[1]}`);
    expect(second.body).toEqual({ object: 'list', has_more: false, data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
  });

  it("reads a refusal in Resend's shape, { statusCode, name, message }, with the spec's status and headers", async () => {
    const missing = await call(resendKey, 'GET', '/contacts/0190c1de-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, name: 'not_found', message: 'Contact not found' });
    const unknownRoute = await call(resendKey, 'POST', '/inboxes', {});
    expect(unknownRoute.body).toEqual({ statusCode: 404, name: 'not_found', message: 'No route for POST /inboxes' });
    const notAllowed = await call(resendKey, 'PUT', '/templates');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('allow')).toBe('POST, GET');
    expect(notAllowed.body).toEqual({ statusCode: 405, name: 'method_not_allowed', message: 'PUT is not allowed on /templates' });
    // Health is nobody's: the same answer whatever key comes with it.
    const health = await call(resendKey, 'GET', '/health');
    expect(health.text).toBe((await call(org.apiKey, 'GET', '/health')).text);
    // A code Resend has no name for keeps ours, in lower case.
    const conflict = await call(resendKey, 'POST', '/templates', { name: 'A', alias: 'welcome', subject: 'S', text: 'x' });
    expect(conflict.status).toBe(201);
    const taken = await call(resendKey, 'POST', '/templates', { name: 'B', alias: 'welcome', subject: 'S', text: 'x' });
    expect(taken.body).toEqual({ statusCode: 409, name: 'conflict', message: 'alias: "welcome" is already another template\'s alias' });
  });

  it('reads a record with its object, nested fields in snake_case, renames declared per resource, and the customer’s own maps as they are', async () => {
    await call(resendKey, 'POST', '/contact-properties', { key: 'planTier', type: 'string' });
    const contact = await call(resendKey, 'POST', '/contacts', { email: 'ada@example.net', first_name: 'Ada', properties: { planTier: 'pro' } });
    expect(contact.body).toMatchObject({
      object: 'contact',
      first_name: 'Ada',
      // A property key is the customer's name: never converted.
      properties: { planTier: 'pro' },
      engagement: { last_delivered_at: null, last_opened_at: null, last_clicked_at: null },
    });
    const webhook = await call(resendKey, 'POST', '/webhooks', { endpoint: 'http://hooks.example.com:9/hook', events: ['email.sent'] });
    expect(webhook.status, webhook.text).toBe(201);
    expect(webhook.body).toMatchObject({ object: 'webhook', endpoint: 'http://hooks.example.com:9/hook', signing_secret: expect.stringMatching(/^whsec_/) });
    expect(webhook.body).not.toHaveProperty('url');
    const detail = await call(resendKey, 'GET', `/webhooks/${webhook.body.id}`);
    expect(detail.body).toMatchObject({ object: 'webhook', id: webhook.body.id, deliveries: [], created_at: expect.any(String) });
    const removed = await call(resendKey, 'DELETE', `/webhooks/${webhook.body.id}`);
    expect(removed.body).toMatchObject({ object: 'webhook', id: webhook.body.id, deleted: true });
    const key = await call(resendKey, 'POST', '/api-keys', { name: 'Another' });
    expect(key.body).toMatchObject({ object: 'api_key', token: expect.stringMatching(/^eu_live_/), token_start: expect.any(String), dialect: 'spec' });
    expect(key.body).not.toHaveProperty('key');
  });
});

describe('the conversion', () => {
  it('turns camelCase names to snake_case and leaves snake_case as it is', () => {
    expect(['createdAt', 'nextCursor', 'lastUsedAt', 'request_id', 'id', 'spfRecordTTL', 'dkimPublicKey'].map(snakeCase)).toEqual([
      'created_at',
      'next_cursor',
      'last_used_at',
      'request_id',
      'id',
      'spf_record_ttl',
      'dkim_public_key',
    ]);
  });

  it('keeps a batch answer as { data } (not a page), and answers a deletion by the path’s id', () => {
    expect(toResendAnswer({ path: '/emails/batch', method: 'POST', params: {} }, { data: [{ id: 'a' }, { error: 'x', code: 'VALIDATION_ERROR' }] })).toEqual({ data: [{ id: 'a' }, { error: 'x', code: 'VALIDATION_ERROR' }] });
    expect(toResendAnswer({ path: '/templates/{id}', method: 'DELETE', params: { id: 't1' } }, { message: 'Template deleted' })).toEqual({ object: 'template', id: 't1', message: 'Template deleted', deleted: true });
    expect(toResendAnswer({ path: '/contacts/{idOrEmail}/topics', method: 'GET', params: { idOrEmail: 'a@b.c' } }, { data: [{ id: 't', name: 'N' }] })).toEqual({ object: 'list', has_more: false, data: [{ id: 't', name: 'N' }], next_cursor: null });
    // An action on one record names it; an answer about something else does not borrow its id.
    expect(toResendAnswer({ path: '/domains/{id}/verify', method: 'POST', params: { id: 'd1' } }, { message: 'Verification started' })).toEqual({ object: 'domain', id: 'd1', message: 'Verification started' });
    expect(toResendAnswer({ path: '/audiences/{id}/contacts/batch', method: 'POST', params: { id: 'a1' } }, { created: 1, updated: 0, unchanged: 0, errors: [] })).toEqual({ created: 1, updated: 0, unchanged: 0, errors: [] });
  });
});
