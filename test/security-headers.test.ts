import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NextHandler } from '@/server/http/server';
import { dashboardPolicy, SERVICE_POLICY } from '@/server/http/security-headers';
import { PAGE_CSP } from '@/server/http/unsubscribe-page';
import { startTestApp, type TestApp } from './support/app';

/**
 * The headers of docs/security.md as the listener sets them. Next is a stand-in here that answers
 * with the policy it was handed on the request (where Next reads the nonce from); the real
 * dashboard under that policy is e2e/security-headers.spec.ts, in Chromium.
 */
const echoNext: NextHandler = async (req, res) => {
  res.setHeader('Content-Type', 'text/html');
  res.end(JSON.stringify({ requestPolicy: req.headers['content-security-policy'] ?? null, reportOnly: req.headers['content-security-policy-report-only'] ?? null }));
};

let http: TestApp;
let https: TestApp;
beforeAll(async () => {
  http = await startTestApp({ next: echoNext });
  https = await startTestApp({ next: echoNext, env: { APP_URL: 'https://mail.example.test' }, shareDatabaseWith: http });
});
afterAll(async () => {
  await https.close();
  await http.close();
});

const NONCE_SCRIPTS = /script-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)' 'strict-dynamic'(;|$)/;

function expectCommonHeaders(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
}

describe('security headers', () => {
  it('puts a fresh nonce policy on every dashboard page and hands the same policy to Next', async () => {
    const first = await http.request('GET', '/emails', { headers: { 'content-security-policy': "script-src 'nonce-chosenbyclient'", 'content-security-policy-report-only': "default-src 'none'" } });
    const second = await http.request('GET', '/emails');
    expectCommonHeaders(first.headers);
    const policy = first.headers.get('content-security-policy')!;
    expect(policy).toMatch(NONCE_SCRIPTS);
    // Next sees exactly the policy the browser gets, never one a client sent.
    expect(first.body).toEqual({ requestPolicy: policy, reportOnly: null });
    expect(second.headers.get('content-security-policy')!.match(NONCE_SCRIPTS)![1]).not.toBe(policy.match(NONCE_SCRIPTS)![1]);
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'", "connect-src 'self'"]) {
      expect(policy.split('; ')).toContain(directive);
    }
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(first.headers.get('strict-transport-security')).toBeNull();
  });

  it('gives /docs (Scalar) the dashboard policy too', async () => {
    const docs = await http.request('GET', '/docs');
    expect(docs.headers.get('content-security-policy')).toMatch(NONCE_SCRIPTS);
    expectCommonHeaders(docs.headers);
  });

  it("answers the API, tRPC, auth and the OpenAPI document with the service's policy: nothing to run, nothing to frame", async () => {
    for (const [method, path] of [
      ['GET', '/api/emails'],
      ['GET', '/api/trpc/organization.current'],
      ['GET', '/api/auth/get-session'],
      ['GET', '/docs/openapi.json'],
      ['GET', '/t/o/not-a-token.gif'],
    ] as const) {
      const response = await http.request(method, path);
      expectCommonHeaders(response.headers);
      expect(response.headers.get('content-security-policy'), path).toBe(SERVICE_POLICY);
    }
    expect((await http.request('GET', '/docs/openapi.json')).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('keeps the unsubscribe page on its own, narrower policy', async () => {
    const page = await http.request('GET', '/unsubscribe/not-a-token');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    // Its URL holds the token: no Referer at all.
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('sends HSTS and upgrades insecure requests only when APP_URL is https', async () => {
    const page = await https.request('GET', '/emails');
    expect(page.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect(page.headers.get('content-security-policy')).toMatch(/; upgrade-insecure-requests$/);
    const api = await https.request('GET', '/api/emails');
    expect(api.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect((await http.request('GET', '/api/emails')).headers.get('strict-transport-security')).toBeNull();
  });

  it("lets React's eval run in development only", () => {
    expect(dashboardPolicy('bm9uY2U=', { https: false, development: true })).toContain("script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic' 'unsafe-eval'");
    expect(dashboardPolicy('bm9uY2U=', { https: false, development: false })).not.toContain('unsafe-eval');
  });
});
