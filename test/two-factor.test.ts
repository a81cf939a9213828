import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, twoFactors } from '@/db/schema';
import { isCountedAuthRoute } from '@/server/services/sign-in/auth-routes';
import { mayRequireTwoFactor } from '@/server/services/two-factor';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, makeMemberOf, ORIGIN, PASSWORD, signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { secretOfUri, totpCode, wrongCode } from './support/totp';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

/** The cookies a browser would hold after a response: later Set-Cookie replaces, an expired one goes. */
function withCookies(cookie: string, response: Response): string {
  const jar = new Map(cookie.split('; ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  for (const set of response.headers.getSetCookie()) {
    const [pair = ''] = set.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    if (/max-age=0/i.test(set) || pair.endsWith('=')) jar.delete(name);
    else jar.set(name, pair.slice(pair.indexOf('=') + 1));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

async function authPost(path: string, cookie: string, body: unknown) {
  const response = await fetch(`${app.url}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, cookie: withCookies(cookie, response) };
}

/** Turns two-factor sign-in on as the account page does: the password, then a code from the shown secret. */
async function setUpTwoFactor(person: DashboardPerson) {
  const enabled = await authPost('/two-factor/enable', person.cookie, { password: PASSWORD });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  const secret = secretOfUri(enabled.body.totpURI);
  const confirmed = await authPost('/two-factor/verify-totp', enabled.cookie, { code: totpCode(secret) });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  person.cookie = confirmed.cookie;
  return { secret, backupCodes: enabled.body.backupCodes as string[] };
}

const signInWithPassword = (email: string) => authPost('/sign-in/email', '', { email, password: PASSWORD });

const auditOf = async (organizationId: string) =>
  (await app.runtime.deps.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId)).orderBy(asc(auditEvents.id))).map((row) => ({
    action: row.action,
    details: row.details,
  }));

describe('two-factor sign-in: setting it up', () => {
  it('shows an otpauth URI and ten recovery codes, turns on only when a code confirms it, and records it', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const enabled = await authPost('/two-factor/enable', ada.cookie, { password: PASSWORD });
    expect(enabled.body).toMatchObject({ method: 'totp', totpURI: expect.stringMatching(/^otpauth:\/\/totp\/EU%20Mail:ada%40example\.test\?/) });
    expect(enabled.body.backupCodes).toHaveLength(10);
    const secret = secretOfUri(enabled.body.totpURI);

    // Not on yet: the secret waits for a code.
    expect((await dashboardCall(app, enabled.cookie, 'query', 'twoFactor.status')).data).toMatchObject({ enabled: false });
    const wrong = await authPost('/two-factor/verify-totp', enabled.cookie, { code: wrongCode(secret) });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } });
    expect((await dashboardCall(app, enabled.cookie, 'query', 'twoFactor.status')).data).toMatchObject({ enabled: false });

    const confirmed = await authPost('/two-factor/verify-totp', enabled.cookie, { code: totpCode(secret) });
    expect(confirmed.status).toBe(200);
    expect((await dashboardCall(app, confirmed.cookie, 'query', 'twoFactor.status')).data).toEqual({
      enabled: true,
      organizationRequires: false,
      mustSetUp: false,
      mayChangeRequirement: true,
    });
    // The session rotated on the change is not a sign-in.
    expect(await auditOf(ada.organizationId)).toEqual([
      { action: 'user.signed_in', details: { via: '/sign-up/email' } },
      { action: 'user.two_factor_enabled', details: {} },
    ]);
  });

  it('keeps the secret and the recovery codes encrypted with the auth secret', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const { secret, backupCodes } = await setUpTwoFactor(ada);
    const [row] = await app.runtime.deps.db.select().from(twoFactors).where(eq(twoFactors.userId, ada.userId));
    expect(row).toMatchObject({ verified: true });
    const stored = `${row!.secret} ${row!.backupCodes}`;
    expect(stored).not.toContain(backupCodes[0]);
    expect(Buffer.from(stored).toString('base64')).not.toContain(secret);
    expect(stored).not.toMatch(/\[/);
  });

  it('refuses to turn it on with a wrong password', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const refused = await authPost('/two-factor/enable', ada.cookie, { password: 'not my password' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } });
  });
});

describe('two-factor sign-in: signing in', () => {
  it('asks for a code after the password, refuses a wrong one, and signs in with the right one (one sign-in recorded)', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const { secret } = await setUpTwoFactor(ada);

    const first = await signInWithPassword(ada.email);
    expect(first).toMatchObject({ status: 200, body: { twoFactorRedirect: true, twoFactorMethods: ['totp'] } });
    // The password alone gives no session.
    expect((await dashboardCall(app, first.cookie, 'query', 'apiKeys.list')).status).toBe(401);

    const wrong = await authPost('/two-factor/verify-totp', first.cookie, { code: wrongCode(secret) });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } });
    const right = await authPost('/two-factor/verify-totp', wrong.cookie, { code: totpCode(secret) });
    expect(right.status).toBe(200);
    expect((await dashboardCall(app, right.cookie, 'query', 'apiKeys.list')).status).toBe(200);

    const signIns = (await auditOf(ada.organizationId)).filter((row) => row.action === 'user.signed_in');
    expect(signIns.map((row) => row.details)).toEqual([{ via: '/sign-up/email' }, { via: '/two-factor/verify-totp' }]);
  });

  it('takes a recovery code once: the same code a second time is refused', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const { backupCodes } = await setUpTwoFactor(ada);
    const code = backupCodes[3]!;

    const first = await signInWithPassword(ada.email);
    const used = await authPost('/two-factor/verify-backup-code', first.cookie, { code });
    expect(used.status).toBe(200);
    expect((await dashboardCall(app, used.cookie, 'query', 'apiKeys.list')).status).toBe(200);

    const again = await signInWithPassword(ada.email);
    const reused = await authPost('/two-factor/verify-backup-code', again.cookie, { code });
    expect(reused).toMatchObject({ status: 401, body: { code: 'INVALID_BACKUP_CODE' } });
    expect((await dashboardCall(app, reused.cookie, 'query', 'apiKeys.list')).status).toBe(401);
    // Another, unused code still works.
    const other = await authPost('/two-factor/verify-backup-code', reused.cookie, { code: backupCodes[4] });
    expect(other.status).toBe(200);
  });

  it('makes new recovery codes with the password: the old ones stop working', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const { backupCodes } = await setUpTwoFactor(ada);
    const renewed = await authPost('/two-factor/generate-backup-codes', ada.cookie, { password: PASSWORD });
    expect(renewed.body.backupCodes).toHaveLength(10);

    const attempt = await signInWithPassword(ada.email);
    expect((await authPost('/two-factor/verify-backup-code', attempt.cookie, { code: backupCodes[0] })).status).toBe(401);
    expect((await authPost('/two-factor/verify-backup-code', attempt.cookie, { code: renewed.body.backupCodes[0] })).status).toBe(200);
  });

  it('turns it off only with the password, records it, and signs in with the password alone again', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    await setUpTwoFactor(ada);
    const refused = await authPost('/two-factor/disable', ada.cookie, { password: 'not my password' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } });

    const off = await authPost('/two-factor/disable', ada.cookie, { password: PASSWORD });
    expect(off.status).toBe(200);
    expect((await dashboardCall(app, off.cookie, 'query', 'twoFactor.status')).data).toMatchObject({ enabled: false });
    const signedIn = await signInWithPassword(ada.email);
    expect(signedIn.body).not.toHaveProperty('twoFactorRedirect');
    expect((await dashboardCall(app, signedIn.cookie, 'query', 'apiKeys.list')).status).toBe(200);
    expect((await auditOf(ada.organizationId)).map((row) => row.action)).toEqual([
      'user.signed_in',
      'user.two_factor_enabled',
      'user.two_factor_disabled',
      'user.signed_in',
    ]);
  });

  it('records a wrong code at sign-in as a failed sign-in, and counts it against the account as a wrong password', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const { secret } = await setUpTwoFactor(ada);

    // Ten failures in the account's sign-in window, wrong codes of both kinds: the password step
    // between them succeeds (and gives its place back), each challenge within the plugin's 5 tries.
    const reasons: string[] = [];
    for (const [route, code, tries] of [
      ['/two-factor/verify-totp', wrongCode(secret), 4],
      ['/two-factor/verify-backup-code', 'aaaaa-bbbbb', 4],
      ['/two-factor/verify-totp', wrongCode(secret), 2],
    ] as const) {
      const challenge = await signInWithPassword(ada.email);
      expect(challenge).toMatchObject({ status: 200, body: { twoFactorRedirect: true } });
      let cookie = challenge.cookie;
      for (let attempt = 0; attempt < tries; attempt += 1) {
        const wrong = await authPost(route, cookie, { code });
        expect(wrong.status, JSON.stringify(wrong.body)).toBe(401);
        reasons.push(wrong.body.code);
        cookie = wrong.cookie;
      }
    }
    expect(new Set(reasons)).toEqual(new Set(['INVALID_CODE', 'INVALID_BACKUP_CODE']));

    // The account's window is full: the right password is refused now, as after ten wrong passwords.
    const throttled = await signInWithPassword(ada.email);
    expect(throttled).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', error: expect.stringMatching(/^Too many sign-in attempts/) } });

    const failed = (await auditOf(ada.organizationId)).filter((row) => row.action === 'user.sign_in_failed');
    expect(failed.map((row) => row.details)).toEqual(reasons.map((reason) => ({ reason })));
  });

  it('leaves the code that confirms a set-up out of the sign-in count and the failed sign-ins', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const enabled = await authPost('/two-factor/enable', ada.cookie, { password: PASSWORD });
    const secret = secretOfUri(enabled.body.totpURI);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await authPost('/two-factor/verify-totp', enabled.cookie, { code: wrongCode(secret) })).status).toBe(401);
    }
    // Signed in already, a mistyped confirmation is no sign-in guess: the password still signs in.
    expect((await authPost('/sign-in/email', '', { email: ada.email, password: PASSWORD })).status).toBe(200);
    expect((await auditOf(ada.organizationId)).map((row) => row.action)).not.toContain('user.sign_in_failed');
  });

  it('counts the code routes per address, before the code is checked', async () => {
    for (const route of ['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/two-factor/enable', '/two-factor/disable', '/two-factor/generate-backup-codes']) {
      expect(isCountedAuthRoute(route), route).toBe(true);
    }
    const answers: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) answers.push((await authPost('/two-factor/verify-totp', '', { code: '123456' })).status);
    expect(answers.slice(0, 30)).toEqual(Array(30).fill(401));
    const refused = await authPost('/two-factor/verify-totp', '', { code: '123456' });
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', error: expect.stringMatching(/^Too many attempts/) } });
    // The recovery-code route shares the window.
    expect((await authPost('/two-factor/verify-backup-code', '', { code: 'aaaaa-bbbbb' })).status).toBe(429);
  });
});

describe('two-factor sign-in: the organization requires it', () => {
  it('only the owner may require it, and only once they have it themselves; the change is recorded', async () => {
    expect(mayRequireTwoFactor('owner')).toBe(true);
    expect(mayRequireTwoFactor('member')).toBe(false);
    const owner = await signUpPerson(app, 'owner@example.test');
    const early = await dashboardCall(app, owner.cookie, 'mutation', 'twoFactor.setRequirement', { required: true });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/Set up two-factor sign-in for yourself/);

    await setUpTwoFactor(owner);
    expect((await dashboardCall(app, owner.cookie, 'mutation', 'twoFactor.setRequirement', { required: true })).data).toEqual({ organizationRequires: true });

    const member = await signUpPerson(app, 'member@example.test');
    await makeMemberOf(app, member, owner.organizationId);
    // Held at the set-up first; once it is done, still not theirs to change.
    expect((await dashboardCall(app, member.cookie, 'mutation', 'twoFactor.setRequirement', { required: false })).body.error.data.envelope.code).toBe('TWO_FACTOR_REQUIRED');
    await setUpTwoFactor(member);
    const refused = await dashboardCall(app, member.cookie, 'mutation', 'twoFactor.setRequirement', { required: false });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.envelope).toMatchObject({ code: 'FORBIDDEN', error: expect.stringMatching(/\(owner only\)/) });

    expect((await dashboardCall(app, owner.cookie, 'mutation', 'twoFactor.setRequirement', { required: false })).data).toEqual({ organizationRequires: false });
    const changes = (await auditOf(owner.organizationId)).filter((row) => row.action === 'organization.two_factor_requirement_changed');
    expect(changes.map((row) => row.details)).toEqual([
      { from: false, to: true },
      { from: true, to: false },
    ]);
  });

  it('holds a member without it at the set-up: every other dashboard procedure refuses until they set it up', async () => {
    const owner = await signUpPerson(app, 'owner@example.test');
    await setUpTwoFactor(owner);
    const member = await signUpPerson(app, 'member@example.test');
    await makeMemberOf(app, member, owner.organizationId);
    await dashboardCall(app, owner.cookie, 'mutation', 'twoFactor.setRequirement', { required: true });

    for (const [kind, path, input] of [
      ['query', 'apiKeys.list', {}],
      ['query', 'organization.current', {}],
      ['mutation', 'domains.create', { name: 'member.example.com' }],
    ] as const) {
      const refused = await dashboardCall(app, member.cookie, kind, path, input);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.data.envelope, path).toEqual({
        status: 403,
        code: 'TWO_FACTOR_REQUIRED',
        error: 'Your organization requires two-factor sign-in. Set it up on your account page before you continue.',
      });
    }
    expect((await dashboardCall(app, member.cookie, 'query', 'twoFactor.status')).data).toMatchObject({ enabled: false, organizationRequires: true, mustSetUp: true, mayChangeRequirement: false });

    // API keys are not people: the organization's keys carry on.
    const key = await keyFor(app, owner.organizationId, 'full_access', 'live');
    expect((await fetch(`${app.url}/api/api-keys`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    // The owner, who has it, is not held.
    expect((await dashboardCall(app, owner.cookie, 'query', 'apiKeys.list')).status).toBe(200);

    await setUpTwoFactor(member);
    expect((await dashboardCall(app, member.cookie, 'query', 'apiKeys.list')).status).toBe(200);
  });

  it('refuses the requirement to API keys, which are not people', async () => {
    const owner = await signUpPerson(app, 'owner@example.test');
    const key = await keyFor(app, owner.organizationId, 'full_access', 'live');
    const response = await fetch(`${app.url}/api/trpc/twoFactor.setRequirement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ required: true }),
    });
    expect(response.status).toBe(403);
  });
});
