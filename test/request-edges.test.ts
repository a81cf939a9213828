import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, errorResponse } from '@/server/http/error-body';
import { decodePathParams } from '@/server/trpc/path-params';
import { requestIdOf } from '@/server/http/request-id';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let key: string;
const seenByNext: Array<string | undefined> = [];
beforeAll(async () => {
  app = await startTestApp({
    next: async (req, res) => {
      seenByNext.push(req.headers['x-request-id'] as string | undefined);
      res.statusCode = 204;
      res.end();
    },
  });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  key = (await app.createOrg()).apiKey;
});

describe('one error body', () => {
  it('is {error, code} below 500 and names the request at 500 and above', () => {
    expect(errorBody('NOT_FOUND', 'Email not found', 'r-1')).toEqual({ error: 'Email not found', code: 'NOT_FOUND' });
    expect(errorBody('INTERNAL_ERROR', 'Internal server error', 'r-2')).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR', request_id: 'r-2' });
  });

  it('answers Next route handlers with the same body and the code’s status', async () => {
    const response = errorResponse('ATTACHMENT_EXPIRED', 'gone', 'r-3', { 'Retry-After': '1' });
    expect(response.status).toBe(410);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({ error: 'gone', code: 'ATTACHMENT_EXPIRED' });
  });
});

describe('path parameters', () => {
  it('are decoded once; a malformed escape is named', () => {
    expect(decodePathParams({ id: 'a%2Fb' })).toEqual({ id: 'a/b' });
    expect(() => decodePathParams({ attachmentId: '%C0%AF' })).toThrow(/attachmentId: is not a valid URL-encoded value/);
  });

  it.each(['/api/emails/%', '/api/emails/%zz', '/api/emails/%C0%AF', '/api/domains/%E0%A4%A', '/api/emails/%zz/attachments/%zz', '/api/api-keys/%'])(
    'answer 400 for a malformed escape in %s, never a 500',
    async (path) => {
      const method = path.startsWith('/api/api-keys') ? 'DELETE' : 'GET';
      const response = await app.request(method, path, { key });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/not a valid URL-encoded value/), code: 'VALIDATION_ERROR' });
    },
  );
});

describe('the request id handed to Next', () => {
  it('is the one on the response, never the one a client sent', async () => {
    seenByNext.length = 0;
    const response = await fetch(`${app.url}/emails`, { headers: { 'X-Request-Id': 'chosen-by-the-client' } });
    expect(response.status).toBe(204);
    const onResponse = response.headers.get('x-request-id');
    expect(onResponse).toMatch(/^[0-9a-f-]{36}$/);
    expect(seenByNext).toEqual([onResponse]);
    expect(requestIdOf(new Headers({ 'x-request-id': onResponse! }))).toBe(onResponse);
  });
});
