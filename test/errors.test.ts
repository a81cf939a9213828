import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  key = (await app.createOrg()).apiKey;
});

const expectEnvelope = (response: { status: number; body: unknown; headers: Headers }, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: expect.any(String), code });
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
};

describe('every failure answers {error, code} with X-Request-Id', () => {
  it('401 without a key', async () => expectEnvelope(await app.request('GET', '/api/api-keys'), 401, 'UNAUTHORIZED'));
  it('401 with a non-bearer scheme', async () =>
    expectEnvelope(await app.request('GET', '/api/api-keys', { headers: { authorization: `Basic ${key}` } }), 401, 'UNAUTHORIZED'));
  it('404 for an unknown path, with and without a key', async () => {
    expectEnvelope(await app.request('GET', '/api/nothing-here'), 404, 'NOT_FOUND');
    expectEnvelope(await app.request('GET', '/api/nothing-here', { key }), 404, 'NOT_FOUND');
  });
  it('405 for a known path with another method, naming the allowed ones', async () => {
    const response = await app.request('PUT', '/api/api-keys', { key, body: {} });
    expectEnvelope(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('POST, GET');
  });
  it('400 for malformed JSON', async () =>
    expectEnvelope(await app.request('POST', '/api/api-keys', { key, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR'));
  it('413 for an oversized body, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(4096) });
    expectEnvelope(await app.request('POST', '/api/api-keys', { key, rawBody: big, headers: { 'content-type': 'application/json' } }), 413, 'PAYLOAD_TOO_LARGE');
  });
  it('415 for a body that is not JSON', async () =>
    expectEnvelope(await app.request('POST', '/api/api-keys', { key, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'));
  it('400 naming an unknown property', async () => {
    const response = await app.request('POST', '/api/api-keys', { key, body: { name: 'x', colour: 'blue' } });
    expectEnvelope(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error).toContain('colour');
  });
  it('treats an empty POST body as {}', async () => {
    const response = await app.request('POST', '/api/api-keys', { key, rawBody: '' });
    expectEnvelope(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error).toMatch(/^name:/);
  });
  it('puts X-Request-Id on successes too, a new one each time', async () => {
    const a = await app.request('GET', '/api/api-keys', { key });
    const b = await app.request('GET', '/api/api-keys', { key });
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});
