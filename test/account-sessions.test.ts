import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, sessions } from '@/db/schema';
import { LAST_SEEN_GRAIN_MS } from '@/server/services/accounts/sessions';
import { deviceInWords } from '@/server/services/accounts/device';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, ORIGIN, PASSWORD, signUpPerson, type DashboardPerson, isSignedIn as isSignedInAt } from './support/dashboard-session';
import { keyFor } from './support/keys';

// Issue 32 point 3: a person's signed-in sessions (device, address, last seen), signing out one
// or all the others; each sign-out in the audit log.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8' } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Signs in again from another device: its own session cookie. */
async function signInFrom(email: string, address: string, userAgent: string): Promise<string> {
  const response = await fetch(`${app.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': address, 'user-agent': userAgent },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const list = async (cookie: string) => {
  const response = await dashboardCall(app, cookie, 'query', 'account.sessions');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.data.data as Array<{ id: string; device: string; ipAddress: string | null; signedInAt: string; lastSeenAt: string; current: boolean }>;
};
const isSignedIn = (cookie: string) => isSignedInAt(app, cookie);
const signOutEntries = (organizationId: string) =>
  app.runtime.deps.db
    .select({ actorId: auditEvents.actorId, targetLabel: auditEvents.targetLabel, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, 'user.sessions_signed_out')))
    .orderBy(auditEvents.occurredAt);

describe("a person's sessions", () => {
  let ada: DashboardPerson;
  let laptop: string;
  let phone: string;
  beforeEach(async () => {
    ada = await signUpPerson(app, 'ada@example.test');
    laptop = await signInFrom('ada@example.test', '198.51.100.20', FIREFOX_LINUX);
    phone = await signInFrom('ada@example.test', '192.0.2.44', SAFARI_IPHONE);
  });

  it('lists them with device, address and times, this one first and marked, never their tokens', async () => {
    const listed = await list(laptop);
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatchObject({ current: true, device: 'Firefox on Linux', ipAddress: '198.51.100.20' });
    expect(listed.slice(1).map((s) => s.current)).toEqual([false, false]);
    expect(listed.map((s) => s.device).sort()).toEqual(['Firefox on Linux', 'Safari on iPhone', 'a Node.js program']);
    expect(listed.find((s) => s.device === 'Safari on iPhone')!.ipAddress).toBe('192.0.2.44');
    for (const session of listed) {
      expect(Object.keys(session)).not.toContain('token');
      expect(Date.parse(session.signedInAt)).not.toBeNaN();
    }
    const tokens = (await app.runtime.deps.db.select({ token: sessions.token }).from(sessions)).map((row) => row.token);
    for (const token of tokens) expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('keeps "last seen" to the dashboard\'s requests, written at most once in five minutes', async () => {
    const before = (await list(phone)).find((s) => s.current)!;
    // Sessions live on real time, as better-auth keeps them: the row is made older than the grain instead of the clock moved.
    await app.runtime.deps.db
      .update(sessions)
      .set({ updatedAt: new Date(Date.now() - LAST_SEEN_GRAIN_MS - 1_000) })
      .where(eq(sessions.id, before.id));
    const start = Date.now();
    const seen = (await list(phone)).find((s) => s.current)!;
    expect(Date.parse(seen.lastSeenAt)).toBeGreaterThanOrEqual(start);
    expect(Date.parse(seen.lastSeenAt)).toBeLessThanOrEqual(Date.now());
    expect((await list(phone)).find((s) => s.current)!.lastSeenAt).toBe(seen.lastSeenAt);
  });

  it('judges them by real time, as better-auth does, whatever the service\'s clock says', async () => {
    // A clock moved past the sessions' expiry (a test clock, docs/test-clock.md) neither signs them out nor hides them from the list.
    app.clock.advance(30 * 24 * 3_600_000);
    expect(await isSignedIn(phone)).toBe(true);
    const listed = await list(phone);
    expect(listed).toHaveLength(3);
    expect(Date.parse(listed[0]!.lastSeenAt)).toBeLessThanOrEqual(Date.now());
  });

  it('signs out one session: its cookie is refused from then on, the others stay', async () => {
    const phoneSession = (await list(phone)).find((s) => s.current)!;
    const signedOut = await dashboardCall(app, laptop, 'mutation', 'account.signOutSession', { id: phoneSession.id });
    expect(signedOut.status, JSON.stringify(signedOut.body)).toBe(200);
    expect(signedOut.data).toEqual({ id: phoneSession.id });
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(laptop)).toBe(true);
    expect(await isSignedIn(ada.cookie)).toBe(true);
    expect((await list(laptop)).map((s) => s.id)).not.toContain(phoneSession.id);

    // Gone is gone: again, it is not found.
    const again = await dashboardCall(app, laptop, 'mutation', 'account.signOutSession', { id: phoneSession.id });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ data: { code: 'NOT_FOUND' } });
    expect(await signOutEntries(ada.organizationId)).toEqual([
      { actorId: ada.userId, targetLabel: 'ada@example.test', details: { scope: 'one', sessions: 1, device: 'Safari on iPhone', ipAddress: '192.0.2.44' } },
    ]);
  });

  it("refuses another person's session id with NOT_FOUND, leaving it signed in", async () => {
    const grace = await signUpPerson(app, 'grace@example.test');
    const [graceSession] = await list(grace.cookie);
    const refused = await dashboardCall(app, laptop, 'mutation', 'account.signOutSession', { id: graceSession!.id });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ message: 'Session not found', data: { code: 'NOT_FOUND' } });
    expect(await isSignedIn(grace.cookie)).toBe(true);
    expect(await signOutEntries(ada.organizationId)).toEqual([]);
    expect(await signOutEntries(grace.organizationId)).toEqual([]);
  });

  it('signs out all the others at once, keeping this one; with none left, it records nothing', async () => {
    const result = await dashboardCall(app, laptop, 'mutation', 'account.signOutOtherSessions');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.data).toEqual({ signedOut: 2 });
    expect(await isSignedIn(laptop)).toBe(true);
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(ada.cookie)).toBe(false);
    expect((await list(laptop)).map((s) => s.current)).toEqual([true]);

    expect((await dashboardCall(app, laptop, 'mutation', 'account.signOutOtherSessions')).data).toEqual({ signedOut: 0 });
    expect(await signOutEntries(ada.organizationId)).toEqual([{ actorId: ada.userId, targetLabel: 'ada@example.test', details: { scope: 'others', sessions: 2 } }]);
  });

  it('is for the dashboard: an API key is refused on /api/trpc, and there is no REST path', async () => {
    const key = await keyFor(app, ada.organizationId, 'full_access', 'live');
    const refused = await app.request('GET', `/api/trpc/account.sessions?input=${encodeURIComponent('{}')}`, { key });
    expect(refused.status).toBe(403);
    const other = await app.request('POST', '/api/trpc/account.signOutOtherSessions', { key, body: {} });
    expect(other.status).toBe(403);
    expect(await isSignedIn(phone)).toBe(true);
    const openapi = await app.request('GET', '/docs/openapi.json');
    expect(openapi.status).toBe(200);
    expect(Object.keys(openapi.body.paths).length).toBeGreaterThan(10);
    expect(openapi.text).not.toMatch(/sessions|signOut/i);
  });
});

describe('a device in words', () => {
  it.each([
    [FIREFOX_LINUX, 'Firefox on Linux'],
    [SAFARI_IPHONE, 'Safari on iPhone'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on macOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['curl/8.5.0', 'curl'],
    [null, 'Unknown device'],
    ['', 'Unknown device'],
  ])('%s → %s', (userAgent, words) => {
    expect(deviceInWords(userAgent)).toBe(words);
  });
});
