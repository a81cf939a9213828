import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addressBucketKey, SIGN_IN_THROTTLE } from '@/server/services/sign-in/throttle';
import { startTestApp, type TestApp } from './support/app';
import { ORIGIN, PASSWORD, signUpPerson } from './support/dashboard-session';

let app: TestApp;
beforeAll(async () => {
  // Loopback is a trusted proxy here, so each test can speak for many client addresses.
  app = await startTestApp({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8' } });
});
afterAll(() => app.close());
beforeEach(() => app.reset());


const signUp = async (email: string): Promise<void> => {
  await signUpPerson(app, email);
};

const signIn = (email: string, password: string, address = '203.0.113.7') =>
  fetch(`${app.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  });

async function failTimes(times: number, email: string, address?: string): Promise<void> {
  for (let attempt = 0; attempt < times; attempt += 1) expect((await signIn(email, 'wrong password!', address)).status).toBe(401);
}

describe('sign-in throttle', () => {
  it('turns an account away after 10 failures in 15 minutes, whatever the address, until the window moves on', async () => {
    await signUp('ada@example.test');
    await failTimes(SIGN_IN_THROTTLE.perAccount, 'ada@example.test');

    // Even the right password, from another address: the account is what is being guessed.
    const refused = await signIn('ada@example.test', PASSWORD, '198.51.100.1');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/^Too many sign-in attempts\. Try again in 15 minutes\.$/), code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBe(SIGN_IN_THROTTLE.windowMs / 1000);
    expect(refused.headers.get('set-cookie')).toBeNull();

    // Another account from the first address is not touched.
    await signUp('grace@example.test');
    expect((await signIn('grace@example.test', PASSWORD)).status).toBe(200);

    app.clock.advance(5 * 60_000);
    const later = await signIn('ada@example.test', PASSWORD);
    expect(later.status).toBe(429);
    expect(Number(later.headers.get('retry-after'))).toBe(10 * 60);

    app.clock.advance(10 * 60_000);
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(200);
  });

  it('does not count a successful sign-in, nor forget the failures before it', async () => {
    await signUp('ada@example.test');
    await failTimes(SIGN_IN_THROTTLE.perAccount - 1, 'ada@example.test');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn('ada@example.test', PASSWORD)).status).toBe(200);
    await failTimes(1, 'ada@example.test');
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(429);
  });

  it('turns an address away after 30 failures at any accounts; other addresses still sign in', async () => {
    await signUp('ada@example.test');
    for (let account = 0; account < SIGN_IN_THROTTLE.perAddress; account += 1) await failTimes(1, `nobody${account}@example.test`, '192.0.2.10');

    const refused = await signIn('ada@example.test', PASSWORD, '192.0.2.10');
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('RATE_LIMITED');
    expect((await signIn('ada@example.test', PASSWORD, '192.0.2.11')).status).toBe(200);
    // The refusal at the address did not count against the account either.
    await failTimes(SIGN_IN_THROTTLE.perAccount - 1, 'ada@example.test', '192.0.2.12');
    expect((await signIn('ada@example.test', PASSWORD, '192.0.2.12')).status).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    await signUp('ada@example.test');
    for (let account = 0; account < SIGN_IN_THROTTLE.perAddress; account += 1) await failTimes(1, `nobody${account}@example.test`, `2001:db8:1:2::${account.toString(16)}`);
    expect((await signIn('ada@example.test', PASSWORD, '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await signIn('ada@example.test', PASSWORD, '2001:db8:1:3::1')).status).toBe(200);
    expect(addressBucketKey('2001:db8:1:2:ffff::1')).toBe(addressBucketKey('2001:0db8:0001:0002::9'));
    expect(addressBucketKey('::ffff:192.0.2.1')).toBe(addressBucketKey('192.0.2.1'));
  });

  it('counts guesses sent all at once: exactly 10 reach the password check', async () => {
    await signUp('ada@example.test');
    const statuses = await Promise.all(Array.from({ length: 20 }, () => signIn('ada@example.test', 'wrong password!').then((response) => response.status)));
    expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_THROTTLE.perAccount);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - SIGN_IN_THROTTLE.perAccount);
  });

  it('keeps the account by the address asked for, whatever its case', async () => {
    await signUp('ada@example.test');
    await failTimes(SIGN_IN_THROTTLE.perAccount, 'Ada@Example.TEST');
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(429);
  });

  it('does not believe an address header a client sends better-auth', async () => {
    await signUp('ada@example.test');
    const response = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': '198.51.100.9', 'x-eumail-client-address': '10.9.9.9' },
      body: JSON.stringify({ email: 'ada@example.test', password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    const { sessions } = await import('@/db/schema');
    // The sign-up's session (from loopback itself) and the sign-in's, from the address the proxy saw.
    const addresses = (await app.runtime.deps.db.select().from(sessions)).map((session) => session.ipAddress).sort();
    expect(addresses).toEqual(['127.0.0.1', '198.51.100.9']);
  });
});
