import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

let http: TestApp;
let https: TestApp;
beforeAll(async () => {
  http = await startTestApp();
  https = await startTestApp({ env: { APP_URL: 'https://mail.example.test' }, shareDatabaseWith: http });
});
afterAll(async () => {
  await https.close();
  await http.close();
});

/** A real sign-up then sign-in over HTTP; the Set-Cookie lines of the sign-in, attributes lower-cased. */
async function signInCookies(app: TestApp, origin: string, email: string): Promise<Array<{ name: string; attributes: string[] }>> {
  const body = (password: string) => JSON.stringify({ name: 'Ada', email, password });
  const headers = { 'content-type': 'application/json', origin };
  expect((await fetch(`${app.url}/api/auth/sign-up/email`, { method: 'POST', headers, body: body('correct horse battery') })).status).toBe(200);
  const response = await fetch(`${app.url}/api/auth/sign-in/email`, { method: 'POST', headers, body: body('correct horse battery') });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    return { name: pair!.slice(0, pair!.indexOf('=')), attributes: attributes.map((attribute) => attribute.toLowerCase()) };
  });
}

describe('the session cookie', () => {
  it('is HttpOnly and SameSite=Lax on the whole site, and not Secure when the service is served over http', async () => {
    const cookies = await signInCookies(http, 'http://127.0.0.1:3000', 'ada@example.test');
    const session = cookies.find((cookie) => cookie.name === 'better-auth.session_token');
    expect(session, JSON.stringify(cookies)).toBeDefined();
    expect(session!.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(session!.attributes).not.toContain('secure');
    // Every cookie better-auth sets follows the same rules.
    for (const cookie of cookies) expect(cookie.attributes, cookie.name).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
  });

  it('is also Secure, under the __Secure- prefix, when APP_URL is https', async () => {
    const cookies = await signInCookies(https, 'https://mail.example.test', 'grace@example.test');
    const session = cookies.find((cookie) => cookie.name === '__Secure-better-auth.session_token');
    expect(session, JSON.stringify(cookies)).toBeDefined();
    expect(session!.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure', 'path=/']));
    for (const cookie of cookies) expect(cookie.attributes, cookie.name).toContain('secure');
  });
});
