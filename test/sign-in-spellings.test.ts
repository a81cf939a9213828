import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { toNodeHandler } from 'better-auth/node';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimitBuckets } from '@/db/schema';
import { stampClientAddress } from '@/server/http/request-origin';
import { isCanonicalAuthPath } from '@/server/http/sign-in';
import { AUTH_ADDRESS_RULES } from '@/server/services/sign-in/auth-routes';
import { SIGN_IN_THROTTLE } from '@/server/services/sign-in/throttle';
import { startTestApp, type TestApp } from './support/app';
import { ORIGIN, PASSWORD, signUpPerson } from './support/dashboard-session';

// Issue 28, point 1: every spelling better-auth routes to a counted endpoint is counted, or refused first.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());


/** A seeded generator (mulberry32): the same spellings every run, and a failing one can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

const DETOURS = ['x/..', '.', '%2e', '%2E', 'x/%2e%2e', 'x/%2E%2e', 'x/.%2e', 'a/b/../..', '', 'x\\..'];
const SEPARATORS = ['/', '/', '/', '//', '\\', '%2f', '%2F', '%5c', '/./'];
const CASES = [(s: string) => s, (s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s[0]!.toUpperCase() + s.slice(1)];
const TAILS = ['', '', '', '/', '?x=1', '?', '#frag', '/.', '/%2e', '?email=a@b.c'];

/** A path better-auth might resolve to `/api/auth/<segments>`, spelled in one of many ways. */
function spelling(rng: ReturnType<typeof random>, segments: string[]): string {
  let path = '/api/auth';
  for (const segment of segments) {
    const detour = rng.next() < 0.5 ? rng.pick(DETOURS) : '';
    if (detour) path += `/${detour}`;
    path += rng.pick(SEPARATORS) + rng.pick(CASES)(segment);
  }
  return path + rng.pick(TAILS);
}

function spellings(seed: number, segments: string[], count: number): string[] {
  const rng = random(seed);
  const found = new Set<string>();
  while (found.size < count) found.add(spelling(rng, segments));
  return [...found];
}

function unchunk(text: string): string {
  let body = '';
  for (let at = 0; ; ) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (!size) return body;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** A POST sent byte for byte as written: fetch and http.request would resolve or refuse odd paths first. */
function rawPost(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  const payload = JSON.stringify(body);
  const head = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'application/json', origin: ORIGIN, 'content-length': String(Buffer.byteLength(payload)), connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const rest = text.slice(split + 4);
      resolve({ status, body: /\r\ntransfer-encoding: chunked/i.test(text.slice(0, split)) ? unchunk(rest) : rest });
    });
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${payload}`);
  });
}

const signUp = async (email: string): Promise<void> => {
  await signUpPerson(app, email);
};

/**
 * better-auth alone behind a bare listener, with no edge in front: what its own hooks count. The
 * client address is stamped as the real listener stamps it.
 */
async function bareBetterAuth(): Promise<{ url: string; close: () => Promise<void> }> {
  const handler = toNodeHandler(app.runtime.auth);
  const server = http.createServer((req, res) => {
    stampClientAddress(req, []);
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('sign-in spellings', () => {
  it('generates spellings that do resolve to sign-in, and spellings the edge refuses', () => {
    const all = spellings(1, ['sign-in', 'email'], 600);
    const resolving = all.filter((path) => new URL(path, 'http://h').pathname === '/api/auth/sign-in/email');
    // The generator is worth something only if many of its spellings reach sign-in through WHATWG URL.
    expect(resolving.length).toBeGreaterThan(20);
    for (const path of resolving) expect(isCanonicalAuthPath(path.split('?')[0]!)).toBe(path.split('?')[0] === '/api/auth/sign-in/email');
  });

  it('after 10 failures, no spelling of sign-in reaches a password check: each is refused or counted (429)', async () => {
    await signUp('ada@example.test');
    for (let attempt = 0; attempt < SIGN_IN_THROTTLE.perAccount; attempt += 1) {
      expect((await rawPost(app.url, '/api/auth/sign-in/email', { email: 'ada@example.test', password: 'wrong password!' })).status).toBe(401);
    }
    const tried = spellings(2, ['sign-in', 'email'], 150);
    const seen = new Map<number, number>();
    for (const path of tried) {
      const answer = await rawPost(app.url, path, { email: 'ada@example.test', password: PASSWORD });
      seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      // 400: refused at the edge; 404: better-auth routes it nowhere; 429: counted, and the window is full.
      expect([400, 404, 429], `${path} answered ${answer.status} ${answer.body}`).toContain(answer.status);
      if (answer.status === 429) expect(JSON.parse(answer.body)).toMatchObject({ code: 'RATE_LIMITED' });
      if (answer.status === 400) expect(JSON.parse(answer.body)).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    // Both kinds were met: the canonical spelling with a query string is counted, the odd ones refused.
    expect(seen.get(400)).toBeGreaterThan(50);
    expect(seen.get(429)).toBeGreaterThan(0);
  });

  it('counts every spelling better-auth resolves, even with no edge in front: the 11th attempt is 429', async () => {
    await signUp('ada@example.test');
    const bare = await bareBetterAuth();
    try {
      const resolving = spellings(3, ['sign-in', 'email'], 400).filter((path) => new URL(path, 'http://h').pathname === '/api/auth/sign-in/email' && !path.includes('#'));
      const odd = resolving.filter((path) => path.split('?')[0] !== '/api/auth/sign-in/email');
      expect(odd.length).toBeGreaterThanOrEqual(SIGN_IN_THROTTLE.perAccount + 5);
      for (const path of odd.slice(0, SIGN_IN_THROTTLE.perAccount)) {
        expect((await rawPost(bare.url, path, { email: 'ada@example.test', password: 'wrong password!' })).status, path).toBe(401);
      }
      // The right password now, by any spelling, through either door: the account's window is full.
      for (const path of odd.slice(SIGN_IN_THROTTLE.perAccount, SIGN_IN_THROTTLE.perAccount + 5)) {
        const refused = await rawPost(bare.url, path, { email: 'ada@example.test', password: PASSWORD });
        expect(refused.status, path).toBe(429);
        expect(JSON.parse(refused.body)).toEqual({ error: expect.stringMatching(/^Too many sign-in attempts\./), code: 'RATE_LIMITED' });
      }
      expect((await rawPost(app.url, '/api/auth/sign-in/email', { email: 'ada@example.test', password: PASSWORD })).status).toBe(429);
    } finally {
      await bare.close();
    }
  });

  it('counts the password-reset routes by any spelling: the 11th request from an address is 429', async () => {
    const bare = await bareBetterAuth();
    try {
      const rule = AUTH_ADDRESS_RULES['/request-password-reset']!;
      const paths = spellings(4, ['request-password-reset'], 300).filter((path) => new URL(path, 'http://h').pathname === '/api/auth/request-password-reset' && !path.includes('#'));
      expect(paths.length).toBeGreaterThan(rule.limit);
      // A new address each time: asking is also counted per account (5), and the address's window is what is tested here.
      for (const [index, path] of paths.slice(0, rule.limit).entries()) {
        // Reset mail is not configured: better-auth refuses, but the request was counted first.
        expect((await rawPost(bare.url, path, { email: `ada${index}@example.test` })).status, path).not.toBe(429);
      }
      const refused = await rawPost(bare.url, paths[rule.limit]!, { email: 'grace@example.test' });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
      // reset-password shares the window.
      expect((await rawPost(app.url, '/api/auth/reset-password', { newPassword: 'another password', token: 'guess' })).status).toBe(429);
    } finally {
      await bare.close();
    }
  });

  it('counts sign-ups by any spelling in the address window', async () => {
    const bare = await bareBetterAuth();
    try {
      const paths = spellings(5, ['sign-up', 'email'], 300).filter((path) => new URL(path, 'http://h').pathname === '/api/auth/sign-up/email' && !path.includes('#'));
      for (const [index, path] of paths.slice(0, 3).entries()) {
        const answer = await rawPost(bare.url, path, { name: 'Ada', email: `ada${index}@example.test`, password: PASSWORD });
        expect(answer.status, `${path} ${answer.body}`).toBe(200);
      }
      const [window] = await app.runtime.deps.db.select().from(rateLimitBuckets).where(like(rateLimitBuckets.key, 'sign-in:sign-up:%'));
      expect(window?.key).toBe('sign-in:sign-up:address:127.0.0.1');
      expect(window?.hits).toHaveLength(3);
    } finally {
      await bare.close();
    }
  });

  it('refuses a Host or X-Forwarded-Proto that would move better-auth to another route', async () => {
    const tricks: Array<Record<string, string>> = [{ host: '127.0.0.1/api/auth/sign-in/email?' }, { 'x-forwarded-proto': 'http://127.0.0.1/api/auth/sign-in/email?' }];
    for (const headers of tricks) {
      const answer = await rawPost(app.url, '/api/auth/ok', { email: 'ada@example.test', password: PASSWORD }, headers);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('answers a route better-auth does not have, a mis-cased one included, with 404 NOT_FOUND in the API shape', async () => {
    for (const path of ['/api/auth/Sign-In/email', '/api/auth/SIGN-UP/EMAIL', '/api/auth/nothing-here']) {
      const answer = await rawPost(app.url, path, { email: 'ada@example.test', password: PASSWORD });
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    // Routes it has, with a parameter in the path too, still reach it.
    expect((await fetch(`${app.url}/api/auth/ok`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/auth/reset-password/not-a-token?callbackURL=/`, { redirect: 'manual' })).status).not.toBe(404);
  });
});
