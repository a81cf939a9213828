import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, members, organizations, sessions } from '@/db/schema';
import { ACTIVE_ORGANIZATION_COOKIE } from '@/server/auth/active-organization';
import { INVITATION_COOKIE, INVITATION_TTL_MS } from '@/server/services/members';
import { ORIGIN, signUpPerson } from './support/dashboard-session';
import { dashboardWithSystemMail, refusal } from './support/dashboard-with-mail';

// Issue 32: members, roles and invitations, through the dashboard's own calls over HTTP with real
// sessions. Invitations go out through the service's own mail to a loopback SMTP sink.

const world = dashboardWithSystemMail({ now: '2026-11-21T12:00:00.000Z' });
const { call, mailTo } = world;

const deps = () => world.app.runtime.deps;

/** The invitation links mailed to an address, oldest first. */
async function invitationLinks(to: string): Promise<string[]> {
  const links: string[] = [];
  // A person who signed up themselves also gets the owner's confirmation link: only the invitations count.
  for (const mail of await mailTo(to, /^Join .+ on EU Mail$/)) {
    expect(mail.text).toMatch(/expires in 7 days/);
    const link = /(http:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
    expect(link, mail.text).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);
    links.push(link!);
  }
  return links;
}
const tokenOf = (link: string) => link.split('/').pop()!;

/** Signs up as the invitation page sends a new person: with the invitation's cookie. */
const signUpInvited = (email: string, token: string) => signUpPerson(world.app, email, { name: 'Bob', cookie: `${INVITATION_COOKIE}=${token}` });

/** An owner and a member of their organization with `role`, who joined through an invitation. */
async function teamWith(role: string, email = `${role}@example.test`) {
  const owner = await signUpPerson(world.app, 'owner@example.test');
  const invited = await call(owner, 'mutation', 'team.invite', { email, role });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const [link] = await invitationLinks(email);
  const member = await signUpInvited(email, tokenOf(link!));
  return { owner, member };
}

/** The organization's recorded changes but sign-ins, by action (the clock stands still: rows of one instant have no order). */
const auditActions = async (organizationId: string) =>
  (await deps().db.select({ action: auditEvents.action, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.organizationId, organizationId)))
    .filter((row) => !row.action.startsWith('user.'))
    .sort((a, b) => a.action.localeCompare(b.action));

describe('invitations', () => {
  it('an invitation to an address with no account leads to sign-up and lands in the organization with the role, and nowhere else', async () => {
    const { owner, member } = await teamWith('viewer', 'Bob@Example.test');
    expect(member.organizationId).toBe(owner.organizationId);
    expect((await call(member, 'query', 'organization.current')).data).toMatchObject({ id: owner.organizationId, role: 'viewer' });
    // No organization of their own.
    expect(await deps().db.select().from(members).where(eq(members.userId, member.userId))).toHaveLength(1);
    expect(await deps().db.select().from(organizations).where(eq(organizations.ownerEmail, 'bob@example.test'))).toHaveLength(0);
    const team = await call(owner, 'query', 'team.members');
    expect(team.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner@example.test', 'owner'],
      ['bob@example.test', 'viewer'],
    ]);
    expect((await call(owner, 'query', 'team.invitations')).data).toEqual([]);
    expect(await auditActions(owner.organizationId)).toEqual([
      { action: 'invitation.accepted', details: { email: 'bob@example.test', role: 'viewer' } },
      { action: 'invitation.sent', details: { email: 'bob@example.test', role: 'viewer' } },
    ]);
  });

  it('a link works once: reused, it is refused and joins nobody', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    await call(owner, 'mutation', 'team.invite', { email: 'carol@example.test', role: 'developer' });
    const [link] = await invitationLinks('carol@example.test');
    const carol = await signUpPerson(world.app, 'carol@example.test');
    expect((await call(carol, 'mutation', 'team.acceptInvitation', { token: tokenOf(link!) })).data).toEqual({ organizationId: owner.organizationId });
    const again = await call(carol, 'mutation', 'team.acceptInvitation', { token: tokenOf(link!) });
    expect(refusal(again)).toEqual({ status: 409, code: 'CONFLICT', message: 'This invitation was used already' });
    expect((await call(owner, 'query', 'team.describeInvitation', { token: tokenOf(link!) })).data).toMatchObject({ state: 'used', organizationName: null, email: null });
    // A sign-up carrying the used link gets an organization of its own instead.
    const dan = await signUpInvited('dan@example.test', tokenOf(link!));
    expect(dan.organizationId).not.toBe(owner.organizationId);
  });

  it('an expired link is refused; a resend mails a new one, and the old one stops working', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    const invited = await call(owner, 'mutation', 'team.invite', { email: 'erin@example.test', role: 'marketer' });
    const [first] = await invitationLinks('erin@example.test');
    expect((await call(owner, 'query', 'team.describeInvitation', { token: tokenOf(first!) })).data).toEqual({
      state: 'valid',
      organizationName: "Ada's organization",
      email: 'erin@example.test',
      role: 'marketer',
      hasAccount: false,
    });
    world.app.clock.advance(INVITATION_TTL_MS);
    const erin = await signUpPerson(world.app, 'erin@example.test');
    expect(refusal(await call(erin, 'mutation', 'team.acceptInvitation', { token: tokenOf(first!) }))).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'This invitation has expired: ask for a new one',
    });
    expect((await call(owner, 'query', 'team.invitations')).data).toMatchObject([{ email: 'erin@example.test', expired: true }]);
    expect((await call(owner, 'mutation', 'team.resendInvitation', { id: invited.data.id })).data).toMatchObject({ expired: false });
    const [, second] = await invitationLinks('erin@example.test');
    expect(refusal(await call(erin, 'mutation', 'team.acceptInvitation', { token: tokenOf(first!) })).status).toBe(404);
    expect((await call(erin, 'mutation', 'team.acceptInvitation', { token: tokenOf(second!) })).status).toBe(200);
    expect(await deps().db.select().from(members).where(eq(members.userId, erin.userId))).toHaveLength(2);
  });

  it('mails an invitation at most once a minute and five times an hour (the first mail counts): past that 429 RATE_LIMITED with Retry-After', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    const invited = await call(owner, 'mutation', 'team.invite', { email: 'finn@example.test', role: 'viewer' });
    const resend = () => call(owner, 'mutation', 'team.resendInvitation', { id: invited.data.id });

    const early = await fetch(`${world.app.url}/api/trpc/team.resendInvitation`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ id: invited.data.id }),
    });
    expect(early.status).toBe(429);
    expect(Number(early.headers.get('retry-after'))).toBe(60);
    expect((await early.json()).error.data.envelope).toMatchObject({ code: 'RATE_LIMITED', error: 'An invitation to finn@example.test was sent less than a minute ago; ask again in 60 s' });

    for (let sent = 2; sent <= 5; sent += 1) {
      world.app.clock.advance(61_000);
      expect((await resend()).status).toBe(200);
    }
    world.app.clock.advance(61_000);
    const hourly = await resend();
    expect(refusal(hourly)).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: expect.stringContaining('5 times in the last hour') });
    expect(await invitationLinks('finn@example.test')).toHaveLength(5);
    // Refused, nothing changed: no audit record of a resend that did not happen.
    expect((await auditActions(owner.organizationId)).filter((row) => row.action === 'invitation.sent')).toHaveLength(5);

    // An hour after the first mail, there is room again; another address's invitation never shared the count.
    world.app.clock.set(new Date(Date.parse('2026-11-21T12:00:00.000Z') + 3_600_000 + 1000));
    expect((await resend()).status).toBe(200);
    const other = await call(owner, 'mutation', 'team.invite', { email: 'gus@example.test', role: 'viewer' });
    world.app.clock.advance(61_000);
    expect((await call(owner, 'mutation', 'team.resendInvitation', { id: other.data.id })).status).toBe(200);
  });

  it('a revoked invitation is refused; accepting needs the invited address', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    const invited = await call(owner, 'mutation', 'team.invite', { email: 'fay@example.test', role: 'viewer' });
    const [link] = await invitationLinks('fay@example.test');
    const mallory = await signUpPerson(world.app, 'mallory@example.test');
    expect(refusal(await call(mallory, 'mutation', 'team.acceptInvitation', { token: tokenOf(link!) }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'This invitation is for fay@example.test; sign in with that address to accept it',
    });
    expect((await call(owner, 'mutation', 'team.revokeInvitation', { id: invited.data.id })).data).toEqual({ revoked: true });
    const fay = await signUpPerson(world.app, 'fay@example.test');
    expect(refusal(await call(fay, 'mutation', 'team.acceptInvitation', { token: tokenOf(link!) }))).toMatchObject({ status: 409, message: 'This invitation was revoked' });
    expect((await auditActions(owner.organizationId)).map((row) => row.action)).toEqual(['invitation.revoked', 'invitation.sent']);
  });

  it('refuses a second invitation to the same address, an invitation to a member, and an invitation as owner', async () => {
    const { owner } = await teamWith('developer', 'dev@example.test');
    expect(refusal(await call(owner, 'mutation', 'team.invite', { email: 'dev@example.test', role: 'viewer' }))).toMatchObject({ status: 409, message: 'dev@example.test is a member already' });
    await call(owner, 'mutation', 'team.invite', { email: 'gil@example.test', role: 'viewer' });
    expect(refusal(await call(owner, 'mutation', 'team.invite', { email: 'GIL@example.test', role: 'admin' }))).toMatchObject({ status: 409 });
    expect(refusal(await call(owner, 'mutation', 'team.invite', { email: 'hal@example.test', role: 'owner' })).status).toBe(400);
  });
});

describe('roles on the server', () => {
  it('a viewer reads but calls no write procedure, and sees no secret', async () => {
    const { member: viewer } = await teamWith('viewer');
    expect((await call(viewer, 'query', 'apiKeys.list')).status).toBe(200);
    expect((await call(viewer, 'query', 'domains.list')).status).toBe(200);
    for (const [path, input] of [
      ['domains.create', { name: 'viewer.example.com' }],
      ['apiKeys.create', { name: 'Viewer key' }],
      ['audiences.create', { name: 'List' }],
      ['team.invite', { email: 'x@example.test', role: 'viewer' }],
    ] as const) {
      expect(refusal(await call(viewer, 'mutation', path, input)), path).toEqual({ status: 403, code: 'FORBIDDEN', message: expect.stringMatching(/^Your role in this organization \(viewer\) does not allow this \(/) });
    }
    expect(refusal(await call(viewer, 'query', 'webhooks.secret', { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(403);
    expect(refusal(await call(viewer, 'query', 'auditLog.list', { limit: 10 })).status).toBe(403);
  });

  it('an admin manages members below owner but cannot remove the owner, change billing or give ownership', async () => {
    const { owner, member: admin } = await teamWith('admin');
    expect(refusal(await call(admin, 'mutation', 'team.remove', { userId: owner.userId }))).toEqual({ status: 403, code: 'FORBIDDEN', message: 'The owner cannot be removed; the owner transfers ownership first' });
    expect(refusal(await call(admin, 'mutation', 'team.changeRole', { userId: owner.userId, role: 'viewer' }))).toMatchObject({ status: 403, message: 'The owner’s role changes only by transferring ownership' });
    expect(refusal(await call(admin, 'mutation', 'organization.changePlan', { plan: '10k' }))).toMatchObject({ status: 403, message: 'Your role in this organization (admin) does not allow this (owner, billing only)' });
    expect(refusal(await call(admin, 'mutation', 'usage.setOverage', { enabled: true })).status).toBe(403);
    expect(refusal(await call(admin, 'mutation', 'team.transferOwnership', { userId: admin.userId })).status).toBe(403);
    expect(refusal(await call(admin, 'mutation', 'team.changeRole', { userId: admin.userId, role: 'owner' })).status).toBe(400);
    // The audit log is the owner's and admins'.
    expect((await call(admin, 'query', 'auditLog.list', { limit: 10 })).status).toBe(200);
    // Below owner, the admin manages: a new developer, promoted and then removed.
    await call(admin, 'mutation', 'team.invite', { email: 'ivy@example.test', role: 'developer' });
    const [link] = await invitationLinks('ivy@example.test');
    const ivy = await signUpInvited('ivy@example.test', tokenOf(link!));
    const changed = await call(admin, 'mutation', 'team.changeRole', { userId: ivy.userId, role: 'billing' });
    expect(changed.data.find((m: { email: string }) => m.email === 'ivy@example.test').role).toBe('billing');
    expect((await call(ivy, 'query', 'organization.current')).data.role).toBe('billing');
    expect((await call(admin, 'mutation', 'team.remove', { userId: ivy.userId })).data).toEqual({ removed: true });
    const actions = (await auditActions(owner.organizationId)).map((row) => row.action);
    expect(actions.filter((a) => a.startsWith('member.'))).toEqual(['member.removed', 'member.role_changed']);
    expect((await auditActions(owner.organizationId)).find((row) => row.action === 'member.role_changed')?.details).toEqual({ from: 'developer', to: 'billing' });
  });

  it('removing a member ends their sessions', async () => {
    const { owner, member } = await teamWith('developer');
    expect((await call(member, 'query', 'apiKeys.list')).status).toBe(200);
    expect((await call(owner, 'mutation', 'team.remove', { userId: member.userId })).status).toBe(200);
    expect(await deps().db.select().from(sessions).where(eq(sessions.userId, member.userId))).toEqual([]);
    expect(refusal(await call(member, 'query', 'apiKeys.list'))).toMatchObject({ status: 401, message: 'Sign in to continue' });
    expect(await deps().db.select().from(members).where(and(eq(members.organizationId, owner.organizationId), eq(members.userId, member.userId)))).toEqual([]);
  });

  it('the owner transfers ownership to a member and stays as an admin', async () => {
    const { owner, member } = await teamWith('developer');
    expect(refusal(await call(member, 'mutation', 'team.transferOwnership', { userId: member.userId })).status).toBe(403);
    const team = await call(owner, 'mutation', 'team.transferOwnership', { userId: member.userId });
    expect(team.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['developer@example.test', 'owner'],
      ['owner@example.test', 'admin'],
    ]);
    const [organization] = await deps().db.select().from(organizations).where(eq(organizations.id, owner.organizationId));
    expect(organization!.ownerEmail).toBe('developer@example.test');
    expect((await call(owner, 'query', 'organization.current')).data.role).toBe('admin');
    expect(refusal(await call(owner, 'mutation', 'organization.changePlan', { plan: '10k' })).status).toBe(403);
    expect((await auditActions(owner.organizationId)).find((row) => row.action.startsWith('organization.'))).toEqual({
      action: 'organization.ownership_transferred',
      details: { from: 'owner@example.test', to: 'developer@example.test', formerOwnerRole: 'admin', previousRole: 'developer' },
    });
  });

  it("another organization's members and invitations are NOT_FOUND", async () => {
    const { owner, member } = await teamWith('developer');
    const stranger = await signUpPerson(world.app, 'stranger@example.test');
    const strangersInvite = await call(stranger, 'mutation', 'team.invite', { email: 'x@example.test', role: 'viewer' });
    for (const [path, input] of [
      ['team.remove', { userId: member.userId }],
      ['team.changeRole', { userId: member.userId, role: 'viewer' }],
      ['team.transferOwnership', { userId: member.userId }],
      ['team.revokeInvitation', { id: strangersInvite.data.id }],
    ] as const) {
      const target = path === 'team.revokeInvitation' ? owner : stranger;
      expect(refusal(await call(target, 'mutation', path, input)), path).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect((await call(stranger, 'query', 'team.members')).data.map((m: { email: string }) => m.email)).toEqual(['stranger@example.test']);
  });

  it('API keys are not people: the team is refused to them, and their permissions are unchanged', async () => {
    const { organizationId, apiKey } = await world.app.createOrg();
    expect((await world.app.request('GET', '/api/trpc/team.members', { key: apiKey })).status).toBe(403);
    expect((await world.app.request('GET', '/api/api-keys', { key: apiKey })).status).toBe(200);
    expect(organizationId).toBeTruthy();
  });
});

describe('several organizations', () => {
  it('a person in two organizations switches between them with the cookie; a cookie for an organization they are not in is ignored', async () => {
    const owner = await signUpPerson(world.app, 'owner@example.test');
    await call(owner, 'mutation', 'team.invite', { email: 'jo@example.test', role: 'marketer' });
    const [link] = await invitationLinks('jo@example.test');
    const jo = await signUpPerson(world.app, 'jo@example.test');
    await call(jo, 'mutation', 'team.acceptInvitation', { token: tokenOf(link!) });
    const list = await call(jo, 'query', 'organization.memberships');
    expect(list.data).toEqual([
      { id: jo.organizationId, name: "Ada's organization", role: 'owner', active: true },
      { id: owner.organizationId, name: "Ada's organization", role: 'marketer', active: false },
    ]);
    const switched = { cookie: `${jo.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${owner.organizationId}` };
    expect((await call(switched, 'query', 'organization.current')).data).toMatchObject({ id: owner.organizationId, role: 'marketer' });
    expect(refusal(await call(switched, 'mutation', 'domains.create', { name: 'jo.example.com' })).status).toBe(403);
    expect((await call(switched, 'query', 'organization.memberships')).data.map((m: { active: boolean }) => m.active)).toEqual([false, true]);
    const stranger = await signUpPerson(world.app, 'stranger@example.test');
    const foreign = { cookie: `${jo.cookie}; ${ACTIVE_ORGANIZATION_COOKIE}=${stranger.organizationId}` };
    expect((await call(foreign, 'query', 'organization.current')).data.id).toBe(jo.organizationId);
  });
});
