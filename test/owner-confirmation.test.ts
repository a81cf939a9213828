import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { auditEvents, members, organizations, ownerConfirmations, systemEmails, users } from '@/db/schema';
import { runAdminCommand } from '@/server/admin/commands';
import { closeRelayPools } from '@/server/mail/delivery';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { createSystemMailer } from '@/server/mail/system-mailer';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { CONFIRMATION_LINK_TTL_MS } from '@/server/services/organizations/owner-confirmation';
import { sweepSystemEmails } from '@/server/services/system-mail/queue';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { publishRecords } from './support/domains';
import { startTestGateway } from './support/gateway';
import { startMxServer, type MxServer } from './support/smtp-mx';
import { startSmtpSink } from './support/smtp';

// Issue 28 point 9: the shared sandbox domain relayed phishing for anyone who signed up with
// someone else's address. Live sending now waits until the owner confirms the address with a
// link mailed to it. The service's own mail goes to a loopback SMTP sink (the relay of
// SMTP_RELAY_URL); live mail to a loopback MX. Nothing here leaves 127.0.0.1.
const SANDBOX = 'sandbox.eumail.eu';
const TARGET = 'target@victim.example';

let app: TestApp;
let mx: MxServer;
let systemMail: Awaited<ReturnType<typeof startSmtpSink>>;
let gateway: SmtpGateway;
beforeAll(async () => {
  mx = await startMxServer();
  systemMail = await startSmtpSink();
  app = await startTestApp({
    env: { SANDBOX_DOMAIN: SANDBOX, SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' },
    systemMailer: createSystemMailer({ relayUrl: systemMail.url, dnsServers: [], mxPort: 25, heloName: 'mx.eumail.example' }),
  });
  gateway = await startTestGateway(app);
});
afterAll(async () => {
  closeRelayPools();
  await gateway.close();
  await app.close();
  await mx.close();
  await systemMail.close();
});

beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  systemMail.messages.length = 0;
  app.clock.set('2026-11-21T12:00:00.000Z');
  // The recipients' domains have an MX on loopback.
  for (const domain of ['victim.example', 'example.net', 'acme.example.com']) {
    app.dns.mx(domain, `mx.${domain}`);
    app.dns.a(`mx.${domain}`, '127.0.0.1');
  }
});

const deps = () => app.runtime.deps;

/** A key made in the dashboard, as the attacker would. */
async function dashboardKey(person: DashboardPerson, mode: 'live' | 'test' = 'live'): Promise<string> {
  const created = await dashboardCall(app, person.cookie, 'mutation', 'apiKeys.create', { name: `${mode} key`, permission: 'full_access', mode });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.data.key as string;
}

const phishing = (overrides: Record<string, unknown> = {}) => ({
  from: `EU Mail Support <support@${SANDBOX}>`,
  to: TARGET,
  subject: 'Your account is locked',
  text: 'Click here to unlock it.',
  ...overrides,
});

const send = (key: string, body: Record<string, unknown> = phishing()) => app.request('POST', '/api/emails', { key, body });

/** The refusal every live send answers while the owner is unconfirmed: ACCOUNT_RESTRICTED, saying why. */
const UNCONFIRMED = { code: 'ACCOUNT_RESTRICTED', error: expect.stringMatching(/owner's email address is confirmed.*link we mailed.*Test keys work/) };

/** The confirmation links the loopback SMTP server received for an address, oldest first. */
async function mailedLinks(to: string): Promise<string[]> {
  await sweepSystemEmails(deps());
  const links: string[] = [];
  for (const message of systemMail.messages.filter((m) => m.to.includes(to))) {
    const mail = await simpleParser(message.raw);
    if (mail.subject !== 'Confirm your address for EU Mail') continue;
    expect(mail.text).toMatch(/expires in 24 hours/);
    const link = /(http:\/\/\S+\/confirm-address\/[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    expect(link, mail.text).toBeDefined();
    // The HTML's button leads to the same link.
    expect(mail.html).toContain(`href="${link}"`);
    links.push(link!);
  }
  return links;
}

/** The link as the test app serves it (APP_URL names the dashboard's origin, not this port). */
const served = (link: string) => `${app.url}${new URL(link).pathname}`;
const openLink = (link: string) => fetch(served(link));
const clickConfirm = (link: string) =>
  fetch(served(link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=1' });

const ownerConfirmedEntries = (organizationId: string) =>
  deps()
    .db.select({ actorKind: auditEvents.actorKind, actorId: auditEvents.actorId, targetLabel: auditEvents.targetLabel, clientAddress: auditEvents.clientAddress, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, 'organization.owner_confirmed')));

async function confirmedAt(organizationId: string): Promise<Date | null> {
  const [row] = await deps().db.select({ at: organizations.ownerConfirmedAt }).from(organizations).where(eq(organizations.id, organizationId));
  return row!.at;
}

describe("the attacker's request: sign up as someone else, send phishing from the sandbox to that address", () => {
  it('is refused (403 ACCOUNT_RESTRICTED, nothing reaches the MX) until the owner opens the mailed link; then the same send is delivered', async () => {
    const person = await signUpPerson(app, TARGET);
    const key = await dashboardKey(person);

    const refused = await send(key);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toEqual(UNCONFIRMED);
    await sweepEmailDispatch(deps());
    expect(mx.messages).toHaveLength(0);

    // The link went to the address given at sign-up, and only there.
    const [link, ...others] = await mailedLinks(TARGET);
    expect(others).toHaveLength(0);
    expect(systemMail.messages.map((m) => m.to)).toEqual([[TARGET]]);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/confirm-address\/[A-Za-z0-9_-]{43}$/);

    // Opening the link (as a mail scanner would) changes nothing: the page asks.
    const page = await openLink(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post">');
    expect(await confirmedAt(person.organizationId)).toBeNull();
    expect((await send(key)).status).toBe(403);

    const confirmed = await clickConfirm(link!);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Address confirmed');
    expect(await confirmedAt(person.organizationId)).toEqual(app.clock.now());
    const [user] = await deps().db.select({ verified: users.emailVerified }).from(users).where(eq(users.id, person.userId));
    expect(user!.verified).toBe(true);
    // The audit log says who confirmed (the owner, by the link) and from where.
    expect(await ownerConfirmedEntries(person.organizationId)).toEqual([
      { actorKind: 'user', actorId: person.userId, targetLabel: TARGET, clientAddress: '127.0.0.1', details: { via: 'link' } },
    ]);

    const sent = await send(key);
    expect(sent.status, sent.text).toBe(200);
    await sweepEmailDispatch(deps());
    expect(mx.messages).toHaveLength(1);
    expect(mx.messages[0]!.to).toEqual([TARGET]);

    // Single use: a second click, or opening it again, confirms nothing more and says so.
    const again = await clickConfirm(link!);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link was used already');
    expect((await openLink(link!)).status).toBe(410);
  });

  it('a link past its 24 hours is refused and confirms nothing; a new one from the dashboard works', async () => {
    const person = await signUpPerson(app, TARGET);
    const key = await dashboardKey(person);
    const [link] = await mailedLinks(TARGET);

    app.clock.advance(CONFIRMATION_LINK_TTL_MS - 1000);
    expect((await openLink(link!)).status, 'still valid a second before').toBe(200);
    app.clock.advance(1000);
    expect((await openLink(link!)).status).toBe(410);
    const late = await clickConfirm(link!);
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('This link has expired');
    expect(await confirmedAt(person.organizationId)).toBeNull();
    expect((await send(key)).body).toEqual(UNCONFIRMED);

    const resent = await dashboardCall(app, person.cookie, 'mutation', 'organization.resendConfirmation');
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.data).toEqual({ sentTo: TARGET });
    const links = await mailedLinks(TARGET);
    expect(links).toHaveLength(2);
    expect(links[1]).not.toBe(link);
    expect((await clickConfirm(links[1]!)).status).toBe(200);
    expect((await send(key)).status).toBe(200);
  });

  it('a link that is no link, or was tampered with, is not found; other methods are refused', async () => {
    const person = await signUpPerson(app, TARGET);
    const [link] = await mailedLinks(TARGET);
    const tampered = link!.slice(0, -1) + (link!.endsWith('A') ? 'B' : 'A');
    expect((await clickConfirm(tampered)).status).toBe(404);
    expect((await fetch(`${app.url}/confirm-address/short`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=1' })).status).toBe(404);
    expect((await fetch(`${app.url}/confirm-address/`)).status).toBe(404);
    expect((await fetch(served(link!), { method: 'DELETE' })).status).toBe(405);
    // A POST without the form's field (not the page's form) changes nothing.
    expect((await fetch(served(link!), { method: 'POST' })).status).toBe(400);
    expect(await confirmedAt(person.organizationId)).toBeNull();
  });

  it('holds a public entry point to its own limits: 30 requests a minute per address, 8 KiB of form, and hostile links answered without a 500', async () => {
    const person = await signUpPerson(app, TARGET);
    const [link] = await mailedLinks(TARGET);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // Hostile links: never a 500, never a confirmation.
    const hostile = ['/confirm-address/..%2F..%2Fapi%2Fhealth', '/confirm-address/%00', `/confirm-address/${'A'.repeat(129)}`, '/confirm-address/<script>', "/confirm-address/x'or'1'='1", '/confirm-address/a/b'];
    for (const path of hostile) {
      const answer = await fetch(`${app.url}${path}`, { method: 'POST', headers: form, body: 'confirm=1' });
      expect(answer.status, path).toBe(404);
      expect(await answer.text()).not.toContain('<script>');
    }
    // A body past 8 KiB is refused unread, the connection closed; nothing is confirmed.
    const huge = await fetch(served(link!), { method: 'POST', headers: form, body: `confirm=1&pad=${'x'.repeat(9 * 1024)}` });
    expect(huge.status).toBe(413);
    expect(huge.headers.get('connection')).toBe('close');
    // JSON, or a form without the page's field, changes nothing either.
    expect((await fetch(served(link!), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"confirm":1}' })).status).toBe(400);
    expect(await confirmedAt(person.organizationId)).toBeNull();
    // The budget: what is left of this minute's 30, then 429 with Retry-After, before the database is asked.
    const used = hostile.length + 2;
    for (let i = used; i < 30; i += 1) expect((await openLink(link!)).status).toBe(200);
    const refused = await clickConfirm(link!);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/Too many requests/);
    expect(await confirmedAt(person.organizationId)).toBeNull();
    // The next minute has room again: the link still works.
    app.clock.advance(60_000);
    expect((await clickConfirm(link!)).status).toBe(200);
    expect(await confirmedAt(person.organizationId)).not.toBeNull();
  });

  it("a link to an address that is no longer the owner's confirms nothing", async () => {
    const person = await signUpPerson(app, TARGET);
    const [link] = await mailedLinks(TARGET);
    await deps().db.update(organizations).set({ ownerEmail: 'someone-else@victim.example' }).where(eq(organizations.id, person.organizationId));
    expect((await clickConfirm(link!)).status).toBe(404);
    expect(await confirmedAt(person.organizationId)).toBeNull();
  });

  it('two clicks at once confirm once: the other is told the link was used', async () => {
    await signUpPerson(app, TARGET);
    const [link] = await mailedLinks(TARGET);
    const statuses = (await Promise.all([clickConfirm(link!), clickConfirm(link!), clickConfirm(link!)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 410, 410]);
  });
});

describe('every live send path answers the same refusal while the owner is unconfirmed', () => {
  /** A signed-up organization on a paid plan with a verified domain and an audience: everything but the confirmation. */
  async function readyButUnconfirmed() {
    const person = await signUpPerson(app, 'owner@acme.example.com');
    await deps().db.update(organizations).set({ plan: '10k' }).where(eq(organizations.id, person.organizationId));
    const key = await dashboardKey(person);
    const domain = await app.request('POST', '/api/domains', { key, body: { name: 'acme.example.com' } });
    expect(domain.status, domain.text).toBe(201);
    publishRecords(app.dns, domain.body.records);
    await sweepDomainChecks(deps());
    const audience = await app.request('POST', '/api/audiences', { key, body: { name: 'News' } });
    await app.request('POST', `/api/audiences/${audience.body.id}/contacts/batch`, { key, body: { contacts: [{ email: 'ada@example.net' }] } });
    const broadcast = await app.request('POST', '/api/broadcasts', { key, body: { audience_id: audience.body.id, from: 'Acme <news@acme.example.com>', subject: 'News', html: '<p>Hi</p>' } });
    expect(broadcast.status, broadcast.text).toBe(201);
    return { person, key, broadcastId: broadcast.body.id as string };
  }

  const fromDomain = { from: 'Acme <hello@acme.example.com>', to: 'ada@example.net', subject: 'Receipt', text: 'Thanks' };

  it('POST /emails (from a verified domain too), each item of POST /emails/batch, both preflights, the broadcast send and its test copy', async () => {
    const { person, key, broadcastId } = await readyButUnconfirmed();

    const direct = await send(key, fromDomain);
    expect(direct.status).toBe(403);
    expect(direct.body).toEqual(UNCONFIRMED);

    // The batch answers per item, as it does for every refusal of an item (docs/security.md).
    const batch = await app.request('POST', '/api/emails/batch', { key, body: [fromDomain, phishing({ to: 'owner@acme.example.com' })] });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.data).toEqual([UNCONFIRMED, UNCONFIRMED]);

    const preflight = await app.request('POST', '/api/emails/preflight', { key, body: fromDomain });
    expect(preflight.status).toBe(200);
    expect(preflight.body).toMatchObject({ accepted: false, status: 403, refusal: direct.body });
    const batchPreflight = await app.request('POST', '/api/emails/batch/preflight', { key, body: [fromDomain] });
    expect(batchPreflight.status, batchPreflight.text).toBe(200);
    expect(JSON.stringify(batchPreflight.body)).toContain(direct.body.error);

    const broadcast = await app.request('POST', `/api/broadcasts/${broadcastId}/send`, { key, body: {} });
    expect(broadcast.status, broadcast.text).toBe(403);
    expect(broadcast.body).toEqual(UNCONFIRMED);
    const testCopy = await app.request('POST', `/api/broadcasts/${broadcastId}/test`, { key, body: { to: ['owner@acme.example.com'] } });
    expect(testCopy.status, testCopy.text).toBe(403);
    expect(testCopy.body).toEqual(UNCONFIRMED);
    // Even to an address a test copy may not go to: the account's refusal comes first, as on every send.
    const elsewhere = await app.request('POST', `/api/broadcasts/${broadcastId}/test`, { key, body: { to: ['someone@elsewhere.example'] } });
    expect(elsewhere.body).toEqual(UNCONFIRMED);
    // The dashboard's own test copy (its session, live mode) alike.
    const dashboardCopy = await dashboardCall(app, person.cookie, 'mutation', 'broadcasts.test', { id: broadcastId, to: ['owner@acme.example.com'] });
    expect(dashboardCopy.body.error?.data?.envelope).toMatchObject(UNCONFIRMED);

    await sweepEmailDispatch(deps());
    expect(mx.messages).toHaveLength(0);

    // Confirmed: each of the same requests goes through.
    const [link] = await mailedLinks('owner@acme.example.com');
    expect((await clickConfirm(link!)).status).toBe(200);
    expect((await send(key, fromDomain)).status).toBe(200);
    expect((await app.request('POST', '/api/emails/batch', { key, body: [fromDomain] })).body.data).toEqual([{ id: expect.any(String) }]);
    expect((await app.request('POST', '/api/emails/preflight', { key, body: fromDomain })).body).toMatchObject({ accepted: true });
    const copied = await app.request('POST', `/api/broadcasts/${broadcastId}/test`, { key, body: { to: ['owner@acme.example.com'] } });
    expect(copied.status, copied.text).toBe(200);
    const started = await app.request('POST', `/api/broadcasts/${broadcastId}/send`, { key, body: {} });
    expect(started.status, started.text).toBe(200);
  });

  it('the SMTP relay gateway refuses with 550 5.7.1 and the reason; after confirmation it relays', async () => {
    const { person } = await readyButUnconfirmed();
    // The SMTP password is a sending_access key (a full_access one is refused at AUTH).
    const made = await dashboardCall(app, person.cookie, 'mutation', 'apiKeys.create', { name: 'smtp', permission: 'sending_access', mode: 'live' });
    const smtpKey = made.data.key as string;
    const relay = async () => {
      const client = nodemailer.createTransport({ host: '127.0.0.1', port: gateway.ports.starttls!, secure: false, requireTLS: true, auth: { user: 'apikey', pass: smtpKey }, tls: { rejectUnauthorized: false } });
      try {
        return { ok: true, response: (await client.sendMail(fromDomain)).response };
      } catch (error) {
        return { ok: false, response: (error as { response?: string }).response ?? String(error) };
      } finally {
        client.close();
      }
    };
    const refused = await relay();
    expect(refused.ok).toBe(false);
    expect(refused.response).toMatch(/^550 5\.7\.1 ACCOUNT_RESTRICTED: Live sending starts once the account owner's email address is confirmed/);
    await sweepEmailDispatch(deps());
    expect(mx.messages).toHaveLength(0);

    const [link] = await mailedLinks('owner@acme.example.com');
    await clickConfirm(link!);
    const relayed = await relay();
    expect(relayed.response).toMatch(/^250 /);
  });

  it('test-key sends, which deliver nothing, work before confirmation', async () => {
    const person = await signUpPerson(app, TARGET);
    const testKey = await dashboardKey(person, 'test');
    const sent = await send(testKey);
    expect(sent.status, sent.text).toBe(200);
    const batch = await app.request('POST', '/api/emails/batch', { key: testKey, body: [phishing()] });
    expect(batch.body.data).toEqual([{ id: expect.any(String) }]);
    await sweepEmailDispatch(deps());
    expect(mx.messages).toHaveLength(0);
  });
});

describe('who is confirmed', () => {
  it('an organization made by the operator (org:create) is confirmed at once and sends', async () => {
    const created = (await runAdminCommand(deps(), 'org:create', { name: 'Vouched', 'owner-email': 'boss@example.net', plan: 'free' })) as { organizationId: string; apiKey: string };
    expect(await runAdminCommand(deps(), 'org:show', { org: created.organizationId })).toMatchObject({ ownerConfirmedAt: app.clock.now().toISOString() });
    const sent = await send(created.apiKey, phishing({ to: 'boss@example.net', subject: 'Welcome' }));
    expect(sent.status, sent.text).toBe(200);
    // The operator's organization gets no confirmation mail.
    await sweepSystemEmails(deps());
    expect(systemMail.messages).toHaveLength(0);
  });

  it('org:confirm vouches for a sign-up whose mail never arrived', async () => {
    const person = await signUpPerson(app, TARGET);
    const key = await dashboardKey(person);
    expect(await runAdminCommand(deps(), 'org:confirm', { org: person.organizationId })).toMatchObject({ ownerConfirmedAt: app.clock.now().toISOString() });
    expect((await send(key)).status).toBe(200);
    // Once in the audit log, as the operator's; a second org:confirm changes nothing and records nothing.
    await runAdminCommand(deps(), 'org:confirm', { org: person.organizationId });
    expect(await ownerConfirmedEntries(person.organizationId)).toEqual([{ actorKind: 'operator', actorId: null, targetLabel: TARGET, clientAddress: null, details: { via: 'operator' } }]);
  });

  it('a sign-up from before this change (no link ever mailed, email_verified false) stays unconfirmed through the migration and must confirm', async () => {
    // As the old code left it: the user, its organization and membership, no confirmation of any kind.
    const old = await signUpPerson(app, TARGET);
    // Its sign-up link was never mailed either: the queued message goes, or it would arrive with the new one.
    await deps().db.delete(systemEmails);
    await deps().db.delete(ownerConfirmations);
    await deps().db.update(organizations).set({ ownerConfirmedAt: null });
    const [user] = await deps().db.select({ verified: users.emailVerified }).from(users).where(eq(users.id, old.userId));
    expect(user!.verified).toBe(false);
    // And an organization the old CLI made (no member), also unconfirmed before the migration.
    const cli = await app.createOrg({ ownerEmail: 'ops@example.net' });
    await deps().db.update(organizations).set({ ownerConfirmedAt: null }).where(eq(organizations.id, cli.organizationId));
    expect(await deps().db.select().from(members).where(eq(members.organizationId, cli.organizationId))).toHaveLength(0);

    // The migration's own statement, as it runs on existing rows.
    const migration = fs.readFileSync(path.join(process.cwd(), 'db/migrations/0018_owner_confirmation.sql'), 'utf8');
    const update = migration.split('--> statement-breakpoint').map((part) => part.replace(/^--.*$/gm, '').trim()).find((part) => part.startsWith('UPDATE'));
    expect(update).toBeDefined();
    await deps().db.execute(sql.raw(update!));

    expect(await confirmedAt(cli.organizationId)).not.toBeNull();
    expect(await confirmedAt(old.organizationId)).toBeNull();
    const key = await dashboardKey(old);
    expect((await send(key)).body).toEqual(UNCONFIRMED);

    // The dashboard shows it and mails a link on request; the link confirms.
    const shown = await dashboardCall(app, old.cookie, 'query', 'organization.current');
    expect(shown.data.owner).toEqual({ email: TARGET, confirmedAt: null });
    expect((await dashboardCall(app, old.cookie, 'mutation', 'organization.resendConfirmation')).status).toBe(200);
    const links = await mailedLinks(TARGET);
    expect(links).toHaveLength(1);
    expect((await clickConfirm(links[0]!)).status).toBe(200);
    expect((await dashboardCall(app, old.cookie, 'query', 'organization.current')).data.owner).toEqual({ email: TARGET, confirmedAt: app.clock.now().toISOString() });
    expect((await send(key)).status).toBe(200);
  });
});

describe('"Resend the link"', () => {
  const resend = (person: DashboardPerson) => dashboardCall(app, person.cookie, 'mutation', 'organization.resendConfirmation');
  const envelope = (response: Awaited<ReturnType<typeof resend>>) => response.body.error?.data?.envelope;

  it('mails at most one link a minute and five an hour (the sign-up\'s counts): past that 429 RATE_LIMITED with Retry-After', async () => {
    const person = await signUpPerson(app, TARGET);
    const early = await fetch(`${app.url}/api/trpc/organization.resendConfirmation`, { method: 'POST', headers: { cookie: person.cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(early.status).toBe(429);
    expect(Number(early.headers.get('retry-after'))).toBe(60);
    expect((await early.json()).error.data.envelope).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringContaining('less than a minute') });

    for (let sent = 2; sent <= 5; sent += 1) {
      app.clock.advance(61_000);
      expect((await resend(person)).status).toBe(200);
    }
    app.clock.advance(61_000);
    const hourly = await resend(person);
    expect(hourly.status).toBe(429);
    expect(envelope(hourly)).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringContaining('5 times in the last hour') });
    expect(await mailedLinks(TARGET)).toHaveLength(5);

    // An hour after the sign-up's link, there is room again.
    app.clock.set(new Date(Date.parse('2026-11-21T12:00:00.000Z') + 3_600_000 + 1000));
    expect((await resend(person)).status).toBe(200);
  });

  it("is the owner's, signed in: an API key, or a member who is not the owner, is refused; once confirmed it is a conflict", async () => {
    const owner = await signUpPerson(app, TARGET);
    const key = await dashboardKey(owner);
    const byKey = await fetch(`${app.url}/api/trpc/organization.resendConfirmation`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
    expect(byKey.status).toBe(403);
    const member = await signUpPerson(app, 'colleague@example.net');
    await deps().db.update(members).set({ organizationId: owner.organizationId, role: 'developer' }).where(eq(members.userId, member.userId));
    expect((await resend(member)).status).toBe(403);

    const [link] = await mailedLinks(TARGET);
    await clickConfirm(link!);
    app.clock.advance(61_000);
    const done = await resend(owner);
    expect(done.status).toBe(409);
    expect(envelope(done)).toMatchObject({ code: 'CONFLICT', error: 'The address is confirmed already' });
  });
});
