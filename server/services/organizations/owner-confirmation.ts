import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { members, organizations, ownerConfirmations, users } from '@/db/schema';
import type { Db } from '@/db/client';
import { confirmAddressEmail } from '@/emails/confirm-address';
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { OPERATOR, recordAudit, type AuditSource } from '../audit/record';
import type { Principal, RequestOrigin } from '../shared/principal';
import { enqueueSystemEmail } from '../system-mail/queue';
import { longestResendWindowMs, requireRoomToResend, RESEND_LIMITS } from '../shared/resend-limits';
import { requireOwner } from './owners';

/** How long a mailed link works: a day, time enough to reach the mailbox and come back (docs/security.md). */
export const CONFIRMATION_LINK_TTL_MS = 24 * 3_600_000;

/** Where the mailed link points: a page that asks to confirm, since mail scanners follow links (server/http/confirm-address.ts). */
export const CONFIRM_ADDRESS_PATH = '/confirm-address';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token as the link carries it: 32 random bytes, base64url (43 characters). */
export const CONFIRMATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Mails a new link to the owner's address, in the caller's transaction: the row (its token's hash,
 * its expiry from the service's clock) and the message exist together. Answers the message's id to wake.
 */
export async function mailConfirmationLink(tx: Db, deps: Pick<Deps, 'clock' | 'config' | 'metrics'>, organization: { id: string; name: string; ownerEmail: string }): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await tx.insert(ownerConfirmations).values({
    id: newId(),
    organizationId: organization.id,
    email: organization.ownerEmail,
    tokenHash: hashOf(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CONFIRMATION_LINK_TTL_MS),
  });
  return enqueueSystemEmail(tx, deps, {
    organizationId: organization.id,
    kind: 'owner_confirmation',
    to: organization.ownerEmail,
    email: confirmAddressEmail({
      email: organization.ownerEmail,
      organizationName: organization.name,
      url: `${deps.config.appUrl.replace(/\/+$/, '')}${CONFIRM_ADDRESS_PATH}/${token}`,
      validHours: CONFIRMATION_LINK_TTL_MS / 3_600_000,
    }),
  });
}

/**
 * The dashboard's "Resend the link": for the owner, signed in, while the address is unconfirmed;
 * RATE_LIMITED (with Retry-After) past {@link RESEND_LIMITS}. Under the organization's row lock,
 * so two clicks at once count as two.
 */
export async function resendConfirmationLink(deps: Deps, principal: Principal): Promise<{ sentTo: string }> {
  await requireOwner(deps, principal, 'Only the owner, signed in to the dashboard, can ask for a new confirmation link');
  const mailed = await deps.db.transaction(async (tx) => {
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, principal.organizationId)).for('update');
    if (!organization) throw notFound('Organization');
    if (organization.ownerConfirmedAt) throw conflict('The address is confirmed already');
    const now = deps.clock.now().getTime();
    const recent = await tx
      .select({ createdAt: ownerConfirmations.createdAt })
      .from(ownerConfirmations)
      .where(and(eq(ownerConfirmations.organizationId, organization.id), gt(ownerConfirmations.createdAt, new Date(now - longestResendWindowMs))));
    requireRoomToResend(RESEND_LIMITS, recent.map((row) => row.createdAt), now, 'A confirmation link');
    return { id: await mailConfirmationLink(tx, deps, organization), to: organization.ownerEmail };
  });
  deps.jobs.wake('system-mail', mailed.id);
  return { sentTo: mailed.to };
}

/** What a link is now, as its page tells it. */
export type LinkState = 'valid' | 'used' | 'expired' | 'unknown';

async function linkRow(db: Db, token: string) {
  if (!CONFIRMATION_TOKEN.test(token)) return null;
  const [row] = await db.select().from(ownerConfirmations).where(eq(ownerConfirmations.tokenHash, hashOf(token)));
  return row ?? null;
}

const stateOf = (row: typeof ownerConfirmations.$inferSelect | null, now: Date): LinkState =>
  !row ? 'unknown' : row.usedAt ? 'used' : row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'valid';

/** The page's question (GET): changes nothing. */
export async function describeConfirmationLink(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<{ state: LinkState; email: string | null }> {
  const row = await linkRow(deps.db, token);
  return { state: stateOf(row, deps.clock.now()), email: row?.email ?? null };
}

/**
 * The page's form (POST): uses the link, once, before it expires, and confirms the address it was
 * mailed to. The use is one conditional update, so two clicks at once confirm once; the other is
 * told the link was used. A link to an address the organization no longer has confirms nothing.
 */
export async function confirmOwnerAddress(deps: Pick<Deps, 'db' | 'clock'>, token: string, origin: RequestOrigin | null = null): Promise<{ state: LinkState | 'confirmed'; email: string | null }> {
  if (!CONFIRMATION_TOKEN.test(token)) return { state: 'unknown', email: null };
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(ownerConfirmations)
      .set({ usedAt: now })
      .where(and(eq(ownerConfirmations.tokenHash, hashOf(token)), isNull(ownerConfirmations.usedAt), gt(ownerConfirmations.expiresAt, now)))
      .returning();
    if (!used) {
      const row = await linkRow(tx, token);
      return { state: stateOf(row, now), email: row?.email ?? null };
    }
    const confirmed = await tx
      .update(organizations)
      .set({ ownerConfirmedAt: now })
      .where(and(eq(organizations.id, used.organizationId), eq(organizations.ownerEmail, used.email), isNull(organizations.ownerConfirmedAt)))
      .returning({ id: organizations.id });
    if (confirmed.length === 0) {
      // Confirmed already (another link), or the owner's address is no longer the one mailed: that link proves nothing now.
      const [organization] = await tx.select({ ownerEmail: organizations.ownerEmail }).from(organizations).where(eq(organizations.id, used.organizationId));
      if (organization?.ownerEmail !== used.email) return { state: 'unknown' as const, email: null };
    } else {
      // better-auth's own flag agrees: the owner's user row has its address confirmed.
      const owners = tx.select({ userId: members.userId }).from(members).where(and(eq(members.organizationId, used.organizationId), eq(members.role, 'owner')));
      const [owner] = await tx
        .update(users)
        .set({ emailVerified: true, updatedAt: now })
        .where(and(eq(users.email, used.email), inArray(users.id, owners)))
        .returning({ id: users.id });
      // The person who opened the link is the owner (the link proves the mailbox), from where they opened it.
      const by: AuditSource = owner ? { actor: { kind: 'user', userId: owner.id }, origin } : { ...OPERATOR, origin };
      await recordAudit(tx, deps, { organizationId: used.organizationId, by, action: 'organization.owner_confirmed', target: { type: 'organization', id: used.organizationId, label: used.email }, details: { via: 'link' } });
    }
    return { state: 'confirmed' as const, email: used.email };
  });
}

/** The operator's `org:confirm`: vouches for the owner's address of an existing organization (a sign-up whose mail never arrives). */
export async function confirmOwnerByOperator(deps: Pick<Deps, 'db' | 'clock'>, organizationId: string): Promise<void> {
  const [organization] = await deps.db.select({ confirmedAt: organizations.ownerConfirmedAt }).from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw notFound('Organization');
  if (organization.confirmedAt) return;
  await deps.db.transaction(async (tx) => {
    const confirmed = await tx
      .update(organizations)
      .set({ ownerConfirmedAt: deps.clock.now() })
      .where(and(eq(organizations.id, organizationId), isNull(organizations.ownerConfirmedAt)))
      .returning({ ownerEmail: organizations.ownerEmail });
    if (confirmed[0]) {
      await recordAudit(tx, deps, { organizationId, by: OPERATOR, action: 'organization.owner_confirmed', target: { type: 'organization', id: organizationId, label: confirmed[0].ownerEmail }, details: { via: 'operator' } });
    }
  });
}
