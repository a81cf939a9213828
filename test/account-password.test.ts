import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { auditEvents, sessions, systemEmails } from '@/db/schema';
import { createSystemMailer } from '@/server/mail/system-mailer';
import { RESET_LINK_TTL_MS } from '@/server/services/accounts/password-reset';
import { sweepSystemEmails } from '@/server/services/system-mail/queue';
import { startTestApp, type TestApp } from './support/app';
import { ORIGIN, PASSWORD, signUpPerson, type DashboardPerson, isSignedIn as isSignedInAt } from './support/dashboard-session';
import { startSmtpSink } from './support/smtp';

// Issue 32 point 1: a forgotten password is reset by a link mailed to the account's address
// (expiring, single use, throttled); a signed-in person changes theirs with the current one. The
// service's own mail goes to a loopback SMTP sink; nothing here leaves 127.0.0.1.
let app: TestApp;
let systemMail: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  systemMail = await startSmtpSink();
  app = await startTestApp({
    // Loopback is a trusted proxy here, so each test can speak for many client addresses.
    env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8' },
    systemMailer: createSystemMailer({ relayUrl: systemMail.url, dnsServers: [], mxPort: 25, heloName: 'mx.eumail.example' }),
  });
});
afterAll(async () => {
  await app.close();
  await systemMail.close();
});
beforeEach(async () => {
  await app.reset();
  systemMail.messages.length = 0;
});
afterEach(() => vi.useRealTimers());

const deps = () => app.runtime.deps;
const NEW_PASSWORD = 'a brand new passphrase';

const auth = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/auth${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': '203.0.113.7', ...headers }, body: JSON.stringify(body) });

const requestReset = (email: string, address = '203.0.113.7') => auth('/request-password-reset', { email }, { 'x-forwarded-for': address });
const resetPassword = (token: string, newPassword = NEW_PASSWORD, address = '203.0.113.7') => auth('/reset-password', { token, newPassword }, { 'x-forwarded-for': address });
const signIn = (email: string, password: string) => auth('/sign-in/email', { email, password });
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
const isSignedIn = (cookie: string) => isSignedInAt(app, cookie);

/** The reset links the loopback SMTP server received for an address, oldest first. */
async function mailedResetLinks(to: string): Promise<string[]> {
  await sweepSystemEmails(deps());
  const links: string[] = [];
  for (const message of systemMail.messages.filter((m) => m.to.includes(to))) {
    const mail = await simpleParser(message.raw);
    if (mail.subject !== 'Reset your EU Mail password') continue;
    expect(mail.text).toMatch(/expires in 60 minutes/);
    const link = /(http:\/\/\S+\/api\/auth\/reset-password\/\S+)/.exec(mail.text ?? '')?.[1];
    expect(link, mail.text).toBeDefined();
    expect(mail.html).toContain(`href="${link!.replace(/&/g, '&amp;')}"`);
    links.push(link!);
  }
  return links;
}

/** Opens a mailed link as a browser would, without following: where better-auth sends the person. */
async function open(link: string): Promise<URL> {
  const url = new URL(link);
  const response = await fetch(`${app.url}${url.pathname}${url.search}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

const tokenOf = (link: string) => decodeURIComponent(new URL(link).pathname.split('/').pop()!);

const entries = (organizationId: string, actions: string[]) =>
  deps()
    .db.select({ action: auditEvents.action, actorId: auditEvents.actorId, targetLabel: auditEvents.targetLabel, clientAddress: auditEvents.clientAddress, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), inArray(auditEvents.action, actions as never)))
    .orderBy(auditEvents.occurredAt);

describe('password reset by a mailed link', () => {
  let ada: DashboardPerson;
  beforeEach(async () => {
    ada = await signUpPerson(app, 'ada@example.test');
  });

  it('mails a link to an existing account only, answering an unknown address the same', async () => {
    const known = await requestReset('ada@example.test');
    const unknown = await requestReset('nobody@example.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());

    expect(await mailedResetLinks('nobody@example.test')).toEqual([]);
    const [link, ...more] = await mailedResetLinks('ada@example.test');
    expect(more).toEqual([]);
    // The link is built from APP_URL, and better-auth's check sends the person on to the dashboard's page.
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/auth\/reset-password\/[A-Za-z0-9]+\?callbackURL=http%3A%2F%2F127\.0\.0\.1%3A3000%2Freset-password$/);
    const landing = await open(link!);
    expect(`${landing.origin}${landing.pathname}`).toBe('http://127.0.0.1:3000/reset-password');
    expect(landing.searchParams.get('token')).toBe(tokenOf(link!));

    const [row] = await deps().db.select({ kind: systemEmails.kind, organizationId: systemEmails.organizationId }).from(systemEmails).where(and(eq(systemEmails.toAddress, 'ada@example.test'), eq(systemEmails.kind, 'password_reset')));
    expect(row).toEqual({ kind: 'password_reset', organizationId: null });
    expect(await entries(ada.organizationId, ['user.password_reset_requested'])).toEqual([
      { action: 'user.password_reset_requested', actorId: ada.userId, targetLabel: 'ada@example.test', clientAddress: '203.0.113.7', details: {} },
    ]);
  });

  it('sets the new password once, signing out every session; the used link is refused after', async () => {
    const elsewhere = cookieOf(await signIn('ada@example.test', PASSWORD));
    expect(await isSignedIn(ada.cookie)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(true);
    await requestReset('ada@example.test');
    const [link] = await mailedResetLinks('ada@example.test');

    const reset = await resetPassword(tokenOf(link!), NEW_PASSWORD, '198.51.100.9');
    expect(reset.status).toBe(200);
    expect(await isSignedIn(ada.cookie)).toBe(false);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect(await deps().db.select().from(sessions).where(eq(sessions.userId, ada.userId))).toEqual([]);
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(401);
    expect((await signIn('ada@example.test', NEW_PASSWORD)).status).toBe(200);

    // Used once: the form's second try and the link itself are refused.
    const again = await resetPassword(tokenOf(link!), 'yet another passphrase');
    expect(again.status).toBe(400);
    expect((await again.json()).code).toBe('INVALID_TOKEN');
    expect((await open(link!)).searchParams.get('error')).toBe('INVALID_TOKEN');
    expect((await signIn('ada@example.test', NEW_PASSWORD)).status).toBe(200);

    expect(await entries(ada.organizationId, ['user.password_reset'])).toEqual([
      { action: 'user.password_reset', actorId: ada.userId, targetLabel: 'ada@example.test', clientAddress: '198.51.100.9', details: { via: 'link', sessionsSignedOut: 'all' } },
    ]);
  });

  it('refuses an expired link, and a made-up token, changing nothing', async () => {
    await requestReset('ada@example.test');
    const [link] = await mailedResetLinks('ada@example.test');
    // better-auth dates its tokens by the system clock: the clock is faked past the link's hour.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RESET_LINK_TTL_MS + 60_000 });
    expect((await open(link!)).searchParams.get('error')).toBe('INVALID_TOKEN');
    const expired = await resetPassword(tokenOf(link!));
    expect(expired.status).toBe(400);
    expect((await expired.json()).code).toBe('INVALID_TOKEN');
    vi.useRealTimers();

    const madeUp = await resetPassword('x'.repeat(24));
    expect(madeUp.status).toBe(400);
    expect((await madeUp.json()).code).toBe('INVALID_TOKEN');
    expect(await isSignedIn(ada.cookie)).toBe(true);
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(200);
    expect(await entries(ada.organizationId, ['user.password_reset'])).toEqual([]);
  });

  it('counts reset requests per account (known or not) and per address, as sign-in is counted', async () => {
    for (const [index, email] of ['ada@example.test', 'nobody@example.test'].entries()) {
      for (let attempt = 0; attempt < 5; attempt += 1) expect((await requestReset(email, `192.0.2.${index * 10 + attempt}`)).status).toBe(200);
      // The sixth, from yet another address: the account is what is counted, and an unknown one alike.
      const refused = await requestReset(email, '198.51.100.77');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: 'Too many attempts. Try again in 15 minutes.', code: 'RATE_LIMITED' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await mailedResetLinks('ada@example.test')).toHaveLength(5);

    // Ten from one address, at any accounts, then that address waits; others do not.
    for (let account = 0; account < 10; account += 1) expect((await requestReset(`someone${account}@example.test`, '203.0.113.99')).status).toBe(200);
    expect((await requestReset('grace@example.test', '203.0.113.99')).status).toBe(429);
    expect((await requestReset('grace@example.test', '203.0.113.100')).status).toBe(200);
  });

  it('counts tries of the reset form per address: guessed tokens run out', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await resetPassword(`guess${attempt}`.padEnd(24, 'x'), NEW_PASSWORD, '192.0.2.50')).status).toBe(400);
    const refused = await resetPassword('y'.repeat(24), NEW_PASSWORD, '192.0.2.50');
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('RATE_LIMITED');
  });
});

describe('password change, signed in', () => {
  it('refuses a wrong current password, recording nothing', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const refused = await auth('/change-password', { currentPassword: 'not my password', newPassword: NEW_PASSWORD, revokeOtherSessions: true }, { cookie: ada.cookie });
    expect(refused.status).toBe(400);
    expect((await refused.json()).code).toBe('INVALID_PASSWORD');
    expect(await isSignedIn(ada.cookie)).toBe(true);
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(200);
    expect(await entries(ada.organizationId, ['user.password_changed'])).toEqual([]);
  });

  it('changes it with the current one; the other sessions are signed out and this device stays signed in', async () => {
    const ada = await signUpPerson(app, 'ada@example.test');
    const elsewhere = cookieOf(await signIn('ada@example.test', PASSWORD));
    const changed = await auth('/change-password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true }, { cookie: ada.cookie, 'x-forwarded-for': '198.51.100.3' });
    expect(changed.status).toBe(200);
    const renewed = cookieOf(changed);
    expect(await isSignedIn(renewed)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect((await signIn('ada@example.test', PASSWORD)).status).toBe(401);
    expect((await signIn('ada@example.test', NEW_PASSWORD)).status).toBe(200);

    expect(await entries(ada.organizationId, ['user.password_changed'])).toEqual([
      { action: 'user.password_changed', actorId: ada.userId, targetLabel: 'ada@example.test', clientAddress: '198.51.100.3', details: { otherSessionsSignedOut: true } },
    ]);
    // The session handed to this device by the change is not a sign-in: the log has the sign-up's and the two real ones only.
    expect(await entries(ada.organizationId, ['user.signed_in'])).toHaveLength(3);
  });
});
