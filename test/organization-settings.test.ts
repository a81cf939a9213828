import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { auditEvents, dkimKeys, domains, members, notificationConfirmations, organizations, users } from '@/db/schema';
import { ACTIVE_ORGANIZATION_COOKIE } from '@/server/auth/active-organization';
import { applyRetention } from '@/server/services/emails/retention';
import { DELETION_GRACE_DAYS } from '@/server/services/organizations/deletion';
import { CONFIRMATION_LINK_TTL_MS } from '@/server/services/organizations/owner-confirmation';
import { DAY_MS } from '@/server/services/shared/time';
import type { Role } from '@/server/vocabulary/roles';
import { signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { dashboardWithSystemMail, refusal } from './support/dashboard-with-mail';
import { sendingOrg } from './support/sending-org';

// Issue 32, item 5: the organization's settings through the dashboard's own calls over HTTP with
// real sessions; the service's own mail goes to a loopback SMTP sink, and the clock is the test's.

const world = dashboardWithSystemMail({ now: '2026-11-21T12:00:00.000Z' });
const { call, mailTo } = world;

const deps = () => world.app.runtime.deps;
const db = () => deps().db;

/** A person who acts for `organizationId` with `role` (they keep the organization their sign-up made). */
async function memberOf(organizationId: string, role: Role, email: string): Promise<DashboardPerson> {
  const person = await signUpPerson(world.app, email);
  await db().insert(members).values({ id: crypto.randomUUID(), organizationId, userId: person.userId, role, createdAt: world.app.clock.now() });
  return { ...person, cookie: `${person.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${organizationId}`, organizationId };
}

const actionsOf = async (organizationId: string, prefix: string) =>
  (await db().select({ action: auditEvents.action, label: auditEvents.targetLabel, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.organizationId, organizationId)))
    .filter((row) => row.action.startsWith(prefix))
    .sort((a, b) => a.action.localeCompare(b.action));

async function notificationLinks(to: string): Promise<string[]> {
  return (await mailTo(to, /^Confirm the notification address of /)).map((mail) => {
    expect(mail.text).toMatch(/expires in 24 hours/);
    const link = /(http:\/\/\S+\/confirm-address\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
    expect(link, mail.text).toBeDefined();
    return link!;
  });
}
const served = (link: string) => `${world.app.url}${new URL(link).pathname}`;
const clickConfirm = (link: string) => fetch(served(link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=1' });

describe('renaming', () => {
  it('the owner and an admin rename; the name is trimmed and recorded from → to; the same name again records nothing', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    const admin = await memberOf(owner.organizationId, 'admin', 'admin@example.test');
    expect((await call(owner, 'mutation', 'organization.rename', { name: '  Acme GmbH  ' })).data).toEqual({ name: 'Acme GmbH' });
    expect((await call(admin, 'mutation', 'organization.rename', { name: 'Acme SE' })).data).toEqual({ name: 'Acme SE' });
    await call(admin, 'mutation', 'organization.rename', { name: 'Acme SE' });
    expect((await call(owner, 'query', 'organization.current')).data.name).toBe('Acme SE');
    expect((await actionsOf(owner.organizationId, 'organization.renamed')).map((row) => row.details)).toEqual(
      expect.arrayContaining([
        { from: "Ada's organization", to: 'Acme GmbH' },
        { from: 'Acme GmbH', to: 'Acme SE' },
      ]),
    );
    expect(await actionsOf(owner.organizationId, 'organization.renamed')).toHaveLength(2);
  });

  it('refuses an empty, over-long or multi-line name (400), and every role but owner and admin (403)', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    for (const [name, message] of [
      ['   ', 'name must not be empty'],
      ['x'.repeat(101), 'name must be at most 100 characters'],
      ['Acme\nGmbH', 'name must be on one line, without control characters'],
    ]) {
      expect(refusal(await call(owner, 'mutation', 'organization.rename', { name }))).toEqual({ status: 400, code: 'VALIDATION_ERROR', message });
    }
    const developer = await memberOf(owner.organizationId, 'developer', 'dev@example.test');
    expect(refusal(await call(developer, 'mutation', 'organization.rename', { name: 'Mine now' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await call(owner, 'query', 'organization.current')).data.name).toBe("Ada's organization");
  });

  it('acts only for an organization the person belongs to: a cookie naming another one renames their own', async () => {
    const other = await signUpPerson(world.app, 'other@example.test');
    const mallory = await signUpPerson(world.app, 'mallory@example.test');
    const forged = { cookie: `${mallory.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${other.organizationId}` };
    expect((await call(forged, 'mutation', 'organization.rename', { name: 'Pwned' })).data).toEqual({ name: 'Pwned' });
    const [theirs] = await db().select({ name: organizations.name }).from(organizations).where(eq(organizations.id, other.organizationId));
    expect(theirs!.name).toBe("Ada's organization");
    expect((await call(mallory, 'query', 'organization.current')).data).toMatchObject({ id: mallory.organizationId, name: 'Pwned' });
  });
});

describe('the notification address', () => {
  it('is the owner’s until a new one is confirmed by its mailed link; then the service’s own mail goes there', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test', { confirmed: true });
    expect((await call(owner, 'query', 'organization.notificationAddress')).data).toEqual({ address: 'owner@example.test', isOwners: true, ownerEmail: 'owner@example.test', pending: null });
    const asked = await call(owner, 'mutation', 'organization.setNotificationAddress', { email: ' Ops@Example.test ' });
    expect(asked.data).toMatchObject({ address: 'owner@example.test', isOwners: true, pending: { email: 'ops@example.test', expired: false } });
    const [link] = await notificationLinks('ops@example.test');

    // Until the link is used, a revoked key's notice goes to the owner.
    const key = await call(owner, 'mutation', 'apiKeys.create', { name: 'Backend' });
    await call(owner, 'mutation', 'apiKeys.revoke', { id: key.data.id });
    expect(await mailTo('owner@example.test', /revoked/i)).toHaveLength(1);

    const page = await fetch(served(link!));
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/ops@example\.test<\/span> may receive the notices/);
    const confirmed = await clickConfirm(link!);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toMatch(/notices go to it from now on/);
    expect((await call(owner, 'query', 'organization.notificationAddress')).data).toMatchObject({ address: 'ops@example.test', isOwners: false, pending: null });
    expect((await call(owner, 'query', 'organization.current')).data.notificationEmail).toBe('ops@example.test');

    const second = await call(owner, 'mutation', 'apiKeys.create', { name: 'Cron' });
    await call(owner, 'mutation', 'apiKeys.revoke', { id: second.data.id });
    expect(await mailTo('ops@example.test', /revoked/i)).toHaveLength(1);
    expect(await mailTo('owner@example.test', /revoked/i)).toHaveLength(1);

    expect((await actionsOf(owner.organizationId, 'organization.notification')).map((row) => [row.action, row.label])).toEqual([
      ['organization.notification_address_confirmed', 'ops@example.test'],
      ['organization.notification_address_requested', 'ops@example.test'],
    ]);
    const [confirmedEntry] = await db().select().from(auditEvents).where(and(eq(auditEvents.organizationId, owner.organizationId), eq(auditEvents.action, 'organization.notification_address_confirmed')));
    expect(confirmedEntry).toMatchObject({ actorKind: 'user', actorId: owner.userId });
  });

  it('a link works once and for a day; a resend replaces it (the earlier one stops working) and is throttled', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'ops@example.test' });
    const [first] = await notificationLinks('ops@example.test');
    const tooSoon = await call(owner, 'mutation', 'organization.resendNotificationLink');
    expect(refusal(tooSoon)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });

    world.app.clock.advance(CONFIRMATION_LINK_TTL_MS);
    expect((await call(owner, 'query', 'organization.notificationAddress')).data.pending).toMatchObject({ email: 'ops@example.test', expired: true });
    const expired = await clickConfirm(first!);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toMatch(/expired/);

    expect((await call(owner, 'mutation', 'organization.resendNotificationLink')).data).toEqual({ sentTo: 'ops@example.test' });
    const [, second] = await notificationLinks('ops@example.test');
    expect(second).not.toBe(first);
    expect((await clickConfirm(second!)).status).toBe(200);
    const reused = await clickConfirm(second!);
    expect(reused.status).toBe(410);
    expect(await reused.text()).toMatch(/used already/);
    expect((await fetch(served(second!))).status).toBe(410);
    expect((await call(owner, 'query', 'organization.notificationAddress')).data.address).toBe('ops@example.test');

    // A link replaced by a newer address confirms nothing.
    world.app.clock.advance(3_600_000);
    await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'first@example.test' });
    world.app.clock.advance(120_000);
    await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'second@example.test' });
    const [replaced] = await notificationLinks('first@example.test');
    expect((await clickConfirm(replaced!)).status).toBe(410);
    expect((await call(owner, 'query', 'organization.notificationAddress')).data).toMatchObject({ address: 'ops@example.test', pending: { email: 'second@example.test' } });
  });

  it('the owner’s address is taken back at once; the address in use already, or nothing to reset, is a 409', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    expect(refusal(await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'owner@example.test' }))).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'Notices go to owner@example.test already',
    });
    expect(refusal(await call(owner, 'mutation', 'organization.resetNotificationAddress'))).toMatchObject({ status: 409, code: 'CONFLICT' });
    await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'ops@example.test' });
    await clickConfirm((await notificationLinks('ops@example.test'))[0]!);
    const back = await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'OWNER@example.test' });
    expect(back.data).toMatchObject({ address: 'owner@example.test', isOwners: true, pending: null });
    expect((await actionsOf(owner.organizationId, 'organization.notification_address_reset')).map((row) => row.details)).toEqual([{ from: 'ops@example.test', droppedPending: null }]);
    expect(refusal(await call(owner, 'mutation', 'organization.setNotificationAddress', { email: 'not an address' }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('is set by the owner or an admin only (403); an unknown link is a 404', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    for (const role of ['developer', 'marketer', 'billing', 'viewer'] as const) {
      const person = await memberOf(owner.organizationId, role, `${role}@example.test`);
      expect(refusal(await call(person, 'mutation', 'organization.setNotificationAddress', { email: 'evil@example.test' })).status, role).toBe(403);
    }
    const admin = await memberOf(owner.organizationId, 'admin', 'admin@example.test');
    expect((await call(admin, 'mutation', 'organization.setNotificationAddress', { email: 'ops@example.test' })).status).toBe(200);
    expect((await clickConfirm(`http://x/confirm-address/${'A'.repeat(43)}`)).status).toBe(404);
  });
});

/** What a confirmation link could change, for these organizations: where notices go, the links' state, the audit log's length. */
async function addressStateOf(...organizationIds: string[]) {
  return {
    organizations: await db().select({ id: organizations.id, notificationEmail: organizations.notificationEmail }).from(organizations).where(inArray(organizations.id, organizationIds)).orderBy(organizations.id),
    links: await db()
      .select({ id: notificationConfirmations.id, usedAt: notificationConfirmations.usedAt, replacedAt: notificationConfirmations.replacedAt })
      .from(notificationConfirmations)
      .where(inArray(notificationConfirmations.organizationId, organizationIds))
      .orderBy(notificationConfirmations.id),
    auditEntries: (await db().select({ id: auditEvents.id }).from(auditEvents).where(inArray(auditEvents.organizationId, organizationIds))).length,
  };
}

describe('the confirmation page, against hostile links', () => {
  it('garbage, overlong, URL-encoded, replayed or another organization’s token: each a clear error and nothing changes; the page’s limits hold for these links too', async () => {
    const ours = await signUpPerson(world.app, 'owner@ours.example');
    const theirs = await signUpPerson(world.app, 'owner@theirs.example');
    await call(ours, 'mutation', 'organization.setNotificationAddress', { email: 'ops@ours.example' });
    await call(theirs, 'mutation', 'organization.setNotificationAddress', { email: 'ops@theirs.example' });
    const [ourLink] = await notificationLinks('ops@ours.example');
    const [theirLink] = await notificationLinks('ops@theirs.example');
    const ourToken = new URL(ourLink!).pathname.split('/').pop()!;
    const before = await addressStateOf(ours.organizationId, theirs.organizationId);
    const oursBefore = await addressStateOf(ours.organizationId);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const post = (path: string, headers: Record<string, string> = {}, body = 'confirm=1') => fetch(`${world.app.url}${path}`, { method: 'POST', headers: { ...form, ...headers }, body });

    const hostile = [
      '/confirm-address/not-a-token',
      `/confirm-address/${'A'.repeat(43)}`,
      `/confirm-address/${ourToken}x`,
      `/confirm-address/${'A'.repeat(129)}`,
      `/confirm-address/${ourToken.slice(0, -1)}%${ourToken.charCodeAt(ourToken.length - 1).toString(16).toUpperCase()}`,
      '/confirm-address/%2e%2e%2f%2e%2e%2fapi%2fhealth',
      '/confirm-address/%252F%2500',
      '/confirm-address/%ZZ',
      '/confirm-address/%E2%80%AE%F0%9F%92%A5',
      '/confirm-address/<script>alert(1)</script>',
      `/confirm-address/${ourToken}/${ourToken}`,
    ];
    for (const path of hostile) {
      const answer = await post(path);
      expect(answer.status, path).toBe(404);
      const page = await answer.text();
      expect(page, path).toContain('This confirmation link is not valid');
      expect(page, path).not.toContain('<script>alert');
    }
    // Longer than any request target the service reads: refused before routing, named.
    const overlong = await post(`/confirm-address/${'A'.repeat(9 * 1024)}`);
    expect(overlong.status).toBe(414);
    expect(await overlong.json()).toMatchObject({ code: 'URI_TOO_LONG', error: expect.stringContaining('longer than 8192 bytes') });
    // A body past the page's 8 KiB, on a good link: refused unread.
    const huge = await post(new URL(ourLink!).pathname, {}, `confirm=1&pad=${'x'.repeat(9 * 1024)}`);
    expect(huge.status).toBe(413);
    expect(huge.headers.get('connection')).toBe('close');
    expect(await addressStateOf(ours.organizationId, theirs.organizationId)).toEqual(before);

    // The page's budget (30 a minute per client address) counts these links as the owner's: then 429, and nothing is asked of the database.
    const used = hostile.length + 1;
    for (let i = used; i < 30; i += 1) expect((await fetch(served(ourLink!))).status).toBe(200);
    const busy = await clickConfirm(ourLink!);
    expect(busy.status).toBe(429);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await busy.text()).toContain('Too many requests');
    expect(await addressStateOf(ours.organizationId, theirs.organizationId)).toEqual(before);
    world.app.clock.advance(60_000);

    // Another organization's link, opened by our owner signed in, naming our organization in the query and the form:
    // it confirms its own organization's address and nothing of ours.
    const theirsPath = new URL(theirLink!).pathname;
    const opened = await post(`${theirsPath}?organizationId=${ours.organizationId}`, { cookie: `${ours.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${ours.organizationId}` }, `confirm=1&organizationId=${ours.organizationId}`);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('ops@theirs.example');
    expect(await addressStateOf(ours.organizationId)).toEqual(oursBefore);
    expect((await call(theirs, 'query', 'organization.notificationAddress')).data).toMatchObject({ address: 'ops@theirs.example', pending: null });
    expect((await call(ours, 'query', 'organization.notificationAddress')).data).toMatchObject({ address: 'owner@ours.example', pending: { email: 'ops@ours.example' } });

    // Replayed: used already, a 410 that says so, and nothing more changes for either organization.
    const settled = await addressStateOf(ours.organizationId, theirs.organizationId);
    for (const method of ['POST', 'GET']) {
      const replayed = method === 'POST' ? await clickConfirm(theirLink!) : await fetch(served(theirLink!));
      expect(replayed.status, method).toBe(410);
      expect(await replayed.text()).toContain('This link was used already');
    }
    expect(await addressStateOf(ours.organizationId, theirs.organizationId)).toEqual(settled);
  });
});

describe('leaving', () => {
  it('a member leaves: the membership goes, the next request acts for another organization of theirs, and it is recorded', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    const dev = await memberOf(owner.organizationId, 'developer', 'dev@example.test');
    const own = (await signUpPersonOrganization(dev)).organizationId;
    expect((await call(dev, 'query', 'organization.current')).data.id).toBe(owner.organizationId);
    expect((await call(dev, 'mutation', 'organization.leave')).data).toEqual({ left: true });
    expect((await call(dev, 'query', 'organization.current')).data).toMatchObject({ id: own, role: 'owner' });
    expect(await db().select().from(members).where(and(eq(members.organizationId, owner.organizationId), eq(members.userId, dev.userId)))).toHaveLength(0);
    expect(await actionsOf(owner.organizationId, 'member.left')).toEqual([{ action: 'member.left', label: 'dev@example.test', details: { role: 'developer' } }]);
    // Their session still works: it is theirs, not the membership's.
    expect((await call(dev, 'query', 'team.members')).status).toBe(200);
  });

  it('the sole owner may not leave: transfer ownership first (403)', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    expect(refusal(await call(owner, 'mutation', 'organization.leave'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'The owner cannot leave: transfer ownership to another member first, or delete the organization',
    });
    expect(await db().select().from(members).where(eq(members.organizationId, owner.organizationId))).toHaveLength(1);
  });
});

/** The organization a person's own sign-up made (they may act for another through the cookie). */
async function signUpPersonOrganization(person: DashboardPerson) {
  const [own] = await db().select({ organizationId: members.organizationId }).from(members).where(and(eq(members.userId, person.userId), eq(members.role, 'owner')));
  return own!;
}

/** An organization able to send live mail with something in every part, and its owner signed in. */
async function populatedOrganization(name: string, domainName: string, ownerEmail: string) {
  const org = await sendingOrg(world.app, { ownerEmail, name }, domainName);
  const person = await signUpPerson(world.app, ownerEmail.replace('@', '+person@'));
  await db().insert(members).values({ id: crypto.randomUUID(), organizationId: org.organizationId, userId: person.userId, role: 'owner', createdAt: world.app.clock.now() });
  const owner = { ...person, cookie: `${person.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${org.organizationId}`, organizationId: org.organizationId };
  const key = org.apiKey;
  const sent = await world.app.request('POST', '/api/emails', { key, body: { from: `Acme <hi@${domainName}>`, to: ['ana@example.net'], subject: 'Receipt', text: 'Thanks' } });
  expect(sent.status, sent.text).toBe(200);
  const audience = await world.app.request('POST', '/api/audiences', { key, body: { name: 'Customers' } });
  expect(audience.status, audience.text).toBe(201);
  expect((await world.app.request('POST', `/api/audiences/${audience.body.id}/contacts`, { key, body: { email: 'ada@example.net' } })).status).toBeLessThan(300);
  expect((await world.app.request('POST', '/api/templates', { key, body: { name: 'Welcome', subject: 'Hi', html: '<p>Hi</p>' } })).status).toBeLessThan(300);
  expect((await world.app.request('POST', '/api/suppressions', { key, body: { email: 'gone@example.net', reason: 'manual' } })).status).toBeLessThan(300);
  world.app.dns.set('hooks.example.com', 'A', ['93.184.216.34']);
  expect((await world.app.request('POST', '/api/webhooks', { key, body: { url: 'https://hooks.example.com/', events: ['email.sent'] } })).status).toBe(201);
  await call(owner, 'mutation', 'organization.setNotificationAddress', { email: `ops@${domainName}` });
  return { ...org, owner };
}

/** Rows naming the organization in every table that has an organization_id column. */
async function rowsNaming(organizationId: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    db(),
    sql`select table_name from information_schema.columns where column_name = 'organization_id' and table_schema = 'public' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${sql.identifier(table_name)} where organization_id = ${organizationId}::uuid`);
    counts[table_name] = row!.n;
  }
  return counts;
}

describe('deleting', () => {
  it('the owner types the name: keys and sending stop, an export is made, the notices say when; cancelling brings it all back', async () => {
    const org = await populatedOrganization('Acme', 'acme.example.com', 'boss@acme.example.com');
    const { owner } = org;
    expect(refusal(await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: 'acme' }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: "Type the organization's name, Acme, to confirm",
    });
    const requested = await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: 'Acme' });
    expect(requested.data).toEqual({ requestedAt: '2026-11-21T12:00:00.000Z', eraseAfter: new Date(Date.parse('2026-11-21T12:00:00.000Z') + DELETION_GRACE_DAYS * DAY_MS).toISOString() });
    expect((await call(owner, 'query', 'organization.current')).data.deletion).toEqual(requested.data);

    // API keys stop at once; the dashboard's own sends are refused, saying why.
    const byKey = await world.app.request('GET', '/api/domains', { key: org.apiKey });
    expect(byKey.status).toBe(401);
    const dashboardSend = await call(owner, 'mutation', 'emails.send', { from: 'Acme <hi@acme.example.com>', to: ['ana@example.net'], subject: 'Again', text: 'x' });
    expect(refusal(dashboardSend)).toMatchObject({ status: 403, code: 'ACCOUNT_RESTRICTED', message: expect.stringMatching(/being deleted/) });

    // The notice went to the organization's notice address (the owner's: the ops address was never confirmed).
    const [notice] = await mailTo('boss@acme.example.com', /will be deleted on 2026-12-21/);
    expect(notice!.text).toMatch(/API keys stopped working/);

    const exported = await call(owner, 'query', 'organization.deletionExport');
    expect(exported.data.fileName).toMatch(/^organization-.+-2026-11-21\.json$/);
    const document = JSON.parse(exported.data.content);
    expect(document).toMatchObject({ format: 'eu-mail.organization-export.v1', organization: { id: org.organizationId, name: 'Acme' } });
    expect(document.domains.map((d: { name: string }) => d.name)).toEqual(['acme.example.com']);
    expect(document.contacts.map((c: { email: string }) => c.email)).toEqual(['ada@example.net']);
    expect(document.emails).toHaveLength(1);
    expect(document.templates).toHaveLength(1);
    expect(document.webhooks).toHaveLength(1);
    expect(document.suppressions.map((s: { email: string }) => s.email)).toEqual(['gone@example.net']);
    expect(document.members.map((m: { email: string; role: string }) => m.role)).toEqual(['owner']);
    expect(document.auditLog.length).toBeGreaterThan(0);
    // No secret leaves in it.
    expect(exported.data.content).not.toMatch(/key_hash|keyHash|secret|private/i);

    expect(refusal(await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: 'Acme' }))).toMatchObject({ status: 409, code: 'CONFLICT' });

    expect((await call(owner, 'mutation', 'organization.cancelDeletion')).data).toEqual({ cancelled: true });
    expect((await call(owner, 'query', 'organization.current')).data.deletion).toBeNull();
    expect((await world.app.request('GET', '/api/domains', { key: org.apiKey })).status).toBe(200);
    expect(refusal(await call(owner, 'query', 'organization.deletionExport'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(refusal(await call(owner, 'mutation', 'organization.cancelDeletion'))).toEqual({ status: 409, code: 'CONFLICT', message: 'No deletion is pending for this organization' });
    expect((await actionsOf(org.organizationId, 'organization.deletion')).map((row) => row.action)).toEqual(['organization.deletion_cancelled', 'organization.deletion_requested']);
  });

  it('only the owner deletes or cancels (403); an admin downloads the export, a developer may not', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    const admin = await memberOf(owner.organizationId, 'admin', 'admin@example.test');
    const dev = await memberOf(owner.organizationId, 'developer', 'dev@example.test');
    expect(refusal(await call(admin, 'mutation', 'organization.requestDeletion', { confirmName: "Ada's organization" }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: "Ada's organization" });
    expect(refusal(await call(admin, 'mutation', 'organization.cancelDeletion'))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await call(admin, 'query', 'organization.deletionExport')).status).toBe(200);
    expect(refusal(await call(dev, 'query', 'organization.deletionExport'))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await call(owner, 'query', 'organization.current')).data.deletion).not.toBeNull();
  });

  it('the hourly sweep erases it only after the grace period: every row that names it, and nothing of another organization; the people stay', async () => {
    const doomed = await populatedOrganization('Acme', 'acme.example.com', 'boss@acme.example.com');
    const kept = await populatedOrganization('Other', 'other.example.com', 'boss@other.example.com');
    const keptBefore = await rowsNaming(kept.organizationId);
    const doomedBefore = await rowsNaming(doomed.organizationId);
    for (const table of ['api_keys', 'domains', 'emails', 'events', 'contacts', 'audiences', 'templates', 'suppressions', 'webhooks', 'members', 'audit_events', 'notification_confirmations']) {
      expect(doomedBefore[table], table).toBeGreaterThan(0);
    }
    const [doomedDomain] = await db().select({ id: domains.id }).from(domains).where(eq(domains.organizationId, doomed.organizationId));
    expect(await db().select().from(dkimKeys).where(eq(dkimKeys.domainId, doomedDomain!.id))).not.toHaveLength(0);

    await call(doomed.owner, 'mutation', 'organization.requestDeletion', { confirmName: 'Acme' });
    world.app.clock.advance(DELETION_GRACE_DAYS * DAY_MS - 60_000);
    expect((await applyRetention(deps())).organizationsErased).toBe(0);
    expect(await db().select().from(organizations).where(eq(organizations.id, doomed.organizationId))).toHaveLength(1);

    world.app.clock.advance(60_000);
    expect((await applyRetention(deps())).organizationsErased).toBe(1);
    expect(await db().select().from(organizations).where(eq(organizations.id, doomed.organizationId))).toHaveLength(0);
    const after = await rowsNaming(doomed.organizationId);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(await db().select().from(dkimKeys).where(eq(dkimKeys.domainId, doomedDomain!.id))).toHaveLength(0);
    expect(await queryRows(db(), sql`select 1 from rate_limit_buckets where key = ${`org:${doomed.organizationId}`}`)).toHaveLength(0);
    // The owner's account stays (it may belong elsewhere; here it has the organization its sign-up made).
    expect(await db().select().from(users).where(eq(users.id, doomed.owner.userId))).toHaveLength(1);
    expect((await call({ cookie: doomed.owner.cookie }, 'query', 'organization.current')).status).toBe(200);

    // The other organization keeps everything, and its key works.
    expect(await rowsNaming(kept.organizationId)).toEqual(keptBefore);
    expect((await world.app.request('GET', '/api/domains', { key: kept.apiKey })).status).toBe(200);
    // Once erased, a second sweep finds nothing.
    expect((await applyRetention(deps())).organizationsErased).toBe(0);
  });

  it('the retired DKIM keys of its deleted domains, which name no domain, go with it; another organization keeps its own', async () => {
    /** A domain added and deleted again: its key stays retired, its private key wiped, naming no domain. */
    const retiredKeyOf = async (org: { apiKey: string }, name: string) => {
      const created = await world.app.request('POST', '/api/domains', { key: org.apiKey, body: { name } });
      expect(created.status, created.text).toBe(201);
      const [key] = await db().select({ id: dkimKeys.id }).from(dkimKeys).where(eq(dkimKeys.domainId, created.body.id));
      expect((await world.app.request('DELETE', `/api/domains/${created.body.id}`, { key: org.apiKey })).status).toBe(200);
      const [row] = await db().select().from(dkimKeys).where(eq(dkimKeys.id, key!.id));
      expect(row).toMatchObject({ domainId: null, privateKeyEncrypted: null, retiredAt: expect.any(Date) });
      return key!.id;
    };
    const doomed = await populatedOrganization('Acme', 'acme.example.com', 'boss@acme.example.com');
    const kept = await populatedOrganization('Other', 'other.example.com', 'boss@other.example.com');
    const doomedKey = await retiredKeyOf(doomed, 'old.acme.example.com');
    const keptKey = await retiredKeyOf(kept, 'old.other.example.com');

    await call(doomed.owner, 'mutation', 'organization.requestDeletion', { confirmName: 'Acme' });
    world.app.clock.advance(DELETION_GRACE_DAYS * DAY_MS);
    expect((await applyRetention(deps())).organizationsErased).toBe(1);
    expect(await db().select().from(dkimKeys).where(eq(dkimKeys.id, doomedKey))).toHaveLength(0);
    expect(await db().select().from(dkimKeys).where(eq(dkimKeys.id, keptKey))).toHaveLength(1);
  });

  it('a deletion cancelled before the sweep is never erased', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: "Ada's organization" });
    world.app.clock.advance(DELETION_GRACE_DAYS * DAY_MS - 1000);
    await call(owner, 'mutation', 'organization.cancelDeletion');
    world.app.clock.advance(2 * DAY_MS);
    expect((await applyRetention(deps())).organizationsErased).toBe(0);
    expect(await db().select().from(organizations).where(eq(organizations.id, owner.organizationId))).toHaveLength(1);
  });
});
