import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { invitations, members, organizations, systemEmails, users } from '@/db/schema';
import type { Db } from '@/db/client';
import { invitationEmail } from '@/emails/invitation';
import type { Deps } from '../../deps';
import { conflict, forbidden, notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { byPrincipal, recordAudit, type AuditSource } from '../audit/record';
import { requireRole } from '../organizations/owners';
import { longestResendWindowMs, requireRoomToResend, RESEND_LIMITS } from '../shared/resend-limits';
import type { Principal, RequestOrigin } from '../shared/principal';
import { enqueueSystemEmail } from '../system-mail/queue';
import { ASSIGNABLE_ROLES, TEAM_MANAGERS, type AssignableRole, type Role } from '../../vocabulary/roles';

/** How long an invitation link works: a week, time for a colleague back from leave (docs/teams.md). */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

/** Where the mailed link points: a page that shows the invitation and asks to accept it. */
export const INVITATION_PATH = '/invitation';

/** A token as the link carries it: 32 random bytes, base64url (43 characters). */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const normalized = (email: string) => email.trim().toLowerCase();

type InvitationRow = typeof invitations.$inferSelect;

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

const toView = (row: InvitationRow, now: Date): InvitationView => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  expired: row.expiresAt.getTime() <= now.getTime(),
});

const MANAGE_MESSAGE = 'Only the owner or an admin invites people';

/** A new token on the row and the mail carrying it, in the caller's transaction; answers the message's id to wake. */
async function mailInvitation(tx: Db, deps: Pick<Deps, 'clock' | 'config' | 'metrics'>, row: InvitationRow, invitedBy: string | null): Promise<{ emailId: string; row: InvitationRow }> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const [updated] = await tx
    .update(invitations)
    .set({ tokenHash: hashOf(token), createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })
    .where(eq(invitations.id, row.id))
    .returning();
  const [organization] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, row.organizationId));
  const emailId = await enqueueSystemEmail(tx, deps, {
    organizationId: row.organizationId,
    kind: 'invitation',
    to: row.email,
    email: invitationEmail({
      organizationName: organization?.name ?? 'an organization',
      invitedBy,
      role: row.role,
      url: `${deps.config.appUrl.replace(/\/+$/, '')}${INVITATION_PATH}/${token}`,
      validDays: INVITATION_TTL_MS / (24 * 3_600_000),
    }),
  });
  return { emailId, row: updated! };
}

async function emailOfUser(db: Db, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email ?? null;
}

/** Pending: neither accepted nor revoked (an expired one stays listed, to resend or revoke). */
const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/**
 * Invites an address with a role below owner (ownership is transferred, not given), for the
 * owner or an admin. A member already, or a pending invitation to the same address, is a CONFLICT
 * (resend that one instead).
 */
export async function invite(deps: Deps, principal: Principal, input: { email: string; role: AssignableRole }): Promise<InvitationView> {
  if (!(ASSIGNABLE_ROLES as readonly string[]).includes(input.role)) throw validationError('role must be admin, developer, marketer, billing or viewer; ownership is transferred');
  await requireRole(deps, principal, TEAM_MANAGERS, MANAGE_MESSAGE);
  const email = normalized(input.email);
  const made = await deps.db.transaction(async (tx) => {
    // One invitation per address at a time: two clicks at once make one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`invitation:${principal.organizationId}:${email}`}))`);
    const [member] = await tx
      .select({ id: members.id })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.organizationId, principal.organizationId), eq(users.email, email)));
    if (member) throw conflict(`${email} is a member already`);
    const [open] = await tx.select({ id: invitations.id }).from(invitations).where(and(eq(invitations.organizationId, principal.organizationId), eq(invitations.email, email), pending));
    if (open) throw conflict(`${email} is invited already: resend that invitation`);
    const now = deps.clock.now();
    const [row] = await tx
      .insert(invitations)
      .values({ id: newId(), organizationId: principal.organizationId, email, role: input.role, tokenHash: `unsent:${newId()}`, invitedBy: principal.userId, createdAt: now, expiresAt: now })
      .returning();
    const mailed = await mailInvitation(tx, deps, row!, await emailOfUser(tx, principal.userId));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'invitation.sent',
      target: { type: 'invitation', id: row!.id, label: email },
      details: { email, role: input.role },
    });
    return mailed;
  });
  deps.jobs.wake('system-mail', made.emailId);
  return toView(made.row, deps.clock.now());
}

export async function listInvitations(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<InvitationView[]> {
  const rows = await deps.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.organizationId, principal.organizationId), pending))
    .orderBy(desc(invitations.createdAt));
  const now = deps.clock.now();
  return rows.map((row) => toView(row, now));
}

/** A pending invitation of the caller's organization, locked; another organization's is NOT_FOUND. */
async function pendingInvitation(tx: Db, organizationId: string, id: string): Promise<InvitationRow> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.organizationId, organizationId), pending))
    .for('update');
  if (!row) throw notFound('Invitation');
  return row;
}

const longestWindowStart = (deps: Pick<Deps, 'clock'>) => new Date(deps.clock.now().getTime() - longestResendWindowMs);

/** When the invitation's mails were queued since `since` (the first one counts, as the sign-up's own link does for the owner's). */
async function invitationMailsSince(tx: Db, row: InvitationRow, since: Date): Promise<Date[]> {
  const sent = await tx
    .select({ createdAt: systemEmails.createdAt })
    .from(systemEmails)
    .where(and(eq(systemEmails.organizationId, row.organizationId), eq(systemEmails.kind, 'invitation'), eq(systemEmails.toAddress, row.email), gt(systemEmails.createdAt, since)));
  return sent.map((mail) => mail.createdAt);
}

/**
 * A new link (the earlier one stops working) with a new week to use it, mailed again: RATE_LIMITED (with Retry-After) past the
 * owner confirmation's resend limits (one a minute, five an hour, the first mail counted). The
 * invitation's row is locked (pendingInvitation), so two clicks at once count as two.
 */
export async function resendInvitation(deps: Deps, principal: Principal, id: string): Promise<InvitationView> {
  await requireRole(deps, principal, TEAM_MANAGERS, MANAGE_MESSAGE);
  const made = await deps.db.transaction(async (tx) => {
    const row = await pendingInvitation(tx, principal.organizationId, id);
    requireRoomToResend(RESEND_LIMITS, await invitationMailsSince(tx, row, longestWindowStart(deps)), deps.clock.now().getTime(), `An invitation to ${row.email}`);
    const mailed = await mailInvitation(tx, deps, row, await emailOfUser(tx, principal.userId));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'invitation.sent',
      target: { type: 'invitation', id: row.id, label: row.email },
      details: { email: row.email, role: row.role, resent: true },
    });
    return mailed;
  });
  deps.jobs.wake('system-mail', made.emailId);
  return toView(made.row, deps.clock.now());
}

export async function revokeInvitation(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await requireRole(deps, principal, TEAM_MANAGERS, MANAGE_MESSAGE);
  await deps.db.transaction(async (tx) => {
    const row = await pendingInvitation(tx, principal.organizationId, id);
    await tx.update(invitations).set({ revokedAt: deps.clock.now() }).where(eq(invitations.id, row.id));
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'invitation.revoked',
      target: { type: 'invitation', id: row.id, label: row.email },
      details: { email: row.email, role: row.role },
    });
  });
}

/** What a link is now, as its page tells it. */
export type InvitationState = 'valid' | 'used' | 'expired' | 'revoked' | 'unknown';

async function linkRow(db: Db, token: string): Promise<InvitationRow | null> {
  if (!INVITATION_TOKEN.test(token)) return null;
  const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, hashOf(token)));
  return row ?? null;
}

const stateOf = (row: InvitationRow | null, now: Date): InvitationState =>
  !row ? 'unknown' : row.acceptedAt ? 'used' : row.revokedAt ? 'revoked' : row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'valid';

/**
 * The invitation page's question: changes nothing. The organization, address and role are shown
 * only while the link is valid; `hasAccount` says whether to offer sign-in or sign-up.
 */
export async function describeInvitation(deps: Pick<Deps, 'db' | 'clock'>, token: string) {
  const row = await linkRow(deps.db, token);
  const state = stateOf(row, deps.clock.now());
  if (state !== 'valid' || !row) return { state, organizationName: null, email: null, role: null, hasAccount: false };
  const [organization] = await deps.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, row.organizationId));
  const [account] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, row.email));
  return { state, organizationName: organization?.name ?? null, email: row.email, role: row.role, hasAccount: Boolean(account) };
}

const REFUSED: Record<Exclude<InvitationState, 'valid'>, string> = {
  used: 'This invitation was used already',
  expired: 'This invitation has expired: ask for a new one',
  revoked: 'This invitation was revoked',
  unknown: 'This invitation link is not valid',
};

/**
 * Uses the link, once, before it expires, for the person signed in with the invited address:
 * they join the organization with the invited role. The use is one conditional update, so two
 * clicks at once join once. Someone signed in with another address is refused and the link stays.
 */
export async function acceptInvitation(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  token: string,
  user: { id: string; email: string },
  origin: RequestOrigin | null,
): Promise<{ organizationId: string }> {
  const row = await linkRow(tx, token);
  const now = deps.clock.now();
  const state = stateOf(row, now);
  if (state !== 'valid' || !row) throw new InvitationRefused(state === 'valid' ? 'unknown' : state);
  if (normalized(user.email) !== row.email) throw forbidden(`This invitation is for ${row.email}; sign in with that address to accept it`);
  const [used] = await tx
    .update(invitations)
    .set({ acceptedAt: now })
    .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .returning();
  if (!used) throw new InvitationRefused('used');
  await tx.insert(members).values({ id: newId(), organizationId: used.organizationId, userId: user.id, role: used.role, createdAt: now }).onConflictDoNothing();
  const by: AuditSource = { actor: { kind: 'user', userId: user.id }, origin };
  await recordAudit(tx, deps, {
    organizationId: used.organizationId,
    by,
    action: 'invitation.accepted',
    target: { type: 'invitation', id: used.id, label: used.email },
    details: { email: used.email, role: used.role },
  });
  return { organizationId: used.organizationId };
}

/** A link that cannot be used: NOT_FOUND for an unknown one, GONE-like CONFLICT for used, expired or revoked. */
export class InvitationRefused extends Error {
  constructor(readonly state: Exclude<InvitationState, 'valid'>) {
    super(REFUSED[state]);
  }
}

/** The dashboard's accept, for a signed-in person: the AppError the edges answer with. */
export async function acceptInvitationAsPerson(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, token: string): Promise<{ organizationId: string }> {
  if (!principal.userId || principal.keyId) throw forbidden('Invitations are accepted by people, signed in');
  const userId = principal.userId;
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
      if (!user) throw notFound('User');
      return acceptInvitation(tx, deps, token, user, principal.origin ?? null);
    });
  } catch (error) {
    if (error instanceof InvitationRefused) throw error.state === 'unknown' ? notFound('Invitation') : conflict(error.message);
    throw error;
  }
}
