import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { notificationConfirmations, organizations } from '@/db/schema';
import type { Db } from '@/db/client';
import { confirmNotificationAddressEmail } from '@/emails/confirm-notification-address';
import type { Deps } from '../../deps';
import { conflict, notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { byPrincipal, recordAudit, type AuditSource } from '../audit/record';
import type { Principal, RequestOrigin } from '../shared/principal';
import { enqueueSystemEmail } from '../system-mail/queue';
import { SETTINGS_MANAGERS } from '../../vocabulary/roles';
import { noticeAddressOf } from './notice-address';
import { CONFIRM_ADDRESS_PATH, CONFIRMATION_LINK_TTL_MS, CONFIRMATION_TOKEN, type LinkState } from './owner-confirmation';
import { longestResendWindowMs, requireRoomToResend, RESEND_LIMITS } from '../shared/resend-limits';
import { requireRole } from './owners';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const MANAGE_MESSAGE = 'Only the owner or an admin sets the notification address';

type Confirmation = typeof notificationConfirmations.$inferSelect;

export interface NotificationAddressView {
  /** Where the service's own mail goes now. */
  address: string;
  /** True while that is the owner's address (no other one confirmed). */
  isOwners: boolean;
  ownerEmail: string;
  /** The address waiting for its link to be used; null when none is. */
  pending: { email: string; sentAt: string; expiresAt: string; expired: boolean } | null;
}

/** The newest link that neither was used nor was replaced: the address waiting for confirmation. */
async function pendingLink(db: Db, organizationId: string): Promise<Confirmation | null> {
  const [row] = await db
    .select()
    .from(notificationConfirmations)
    .where(and(eq(notificationConfirmations.organizationId, organizationId), isNull(notificationConfirmations.usedAt), isNull(notificationConfirmations.replacedAt)))
    .orderBy(desc(notificationConfirmations.createdAt))
    .limit(1);
  return row ?? null;
}

export async function describeNotificationAddress(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<NotificationAddressView> {
  const [organization] = await deps.db.select().from(organizations).where(eq(organizations.id, principal.organizationId));
  if (!organization) throw notFound('Organization');
  const pending = await pendingLink(deps.db, organization.id);
  return {
    address: noticeAddressOf(organization),
    isOwners: organization.notificationEmail === null,
    ownerEmail: organization.ownerEmail,
    pending: pending
      ? { email: pending.email, sentAt: pending.createdAt.toISOString(), expiresAt: pending.expiresAt.toISOString(), expired: pending.expiresAt.getTime() <= deps.clock.now().getTime() }
      : null,
  };
}

/** RATE_LIMITED past {@link RESEND_LIMITS}, counting every link mailed for the organization's notification address. */
async function throttle(tx: Db, deps: Pick<Deps, 'clock'>, organizationId: string): Promise<void> {
  const now = deps.clock.now().getTime();
  const recent = await tx
    .select({ createdAt: notificationConfirmations.createdAt })
    .from(notificationConfirmations)
    .where(and(eq(notificationConfirmations.organizationId, organizationId), gt(notificationConfirmations.createdAt, new Date(now - longestResendWindowMs))));
  requireRoomToResend(RESEND_LIMITS, recent.map((row) => row.createdAt), now, 'A confirmation link');
}

const replacePending = (tx: Db, organizationId: string, now: Date) =>
  tx
    .update(notificationConfirmations)
    .set({ replacedAt: now })
    .where(and(eq(notificationConfirmations.organizationId, organizationId), isNull(notificationConfirmations.usedAt), isNull(notificationConfirmations.replacedAt)));

/** Replaces any earlier link (it stops working) and mails a new one to `email`; answers the message's id to wake. */
async function mailLink(tx: Db, deps: Pick<Deps, 'clock' | 'config' | 'metrics'>, organization: { id: string; name: string }, email: string, requestedBy: string | null): Promise<string> {
  await throttle(tx, deps, organization.id);
  const now = deps.clock.now();
  await replacePending(tx, organization.id, now);
  const token = randomBytes(32).toString('base64url');
  await tx.insert(notificationConfirmations).values({
    id: newId(),
    organizationId: organization.id,
    email,
    tokenHash: hashOf(token),
    requestedBy,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CONFIRMATION_LINK_TTL_MS),
  });
  return enqueueSystemEmail(tx, deps, {
    organizationId: organization.id,
    kind: 'notification_confirmation',
    to: email,
    email: confirmNotificationAddressEmail({
      email,
      organizationName: organization.name,
      url: `${deps.config.appUrl.replace(/\/+$/, '')}${CONFIRM_ADDRESS_PATH}/${token}`,
      validHours: CONFIRMATION_LINK_TTL_MS / 3_600_000,
    }),
  });
}

const lockedOrganization = async (tx: Db, id: string) => {
  const [organization] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
  if (!organization) throw notFound('Organization');
  return organization;
};

/**
 * The owner or an admin asks that the service's own mail go to `given`: a link is mailed there, and
 * nothing changes until it is used. The owner's address needs no link (it has its own
 * confirmation): asking for it goes back to it at once. The address in use already is a 409.
 */
export async function requestNotificationAddress(deps: Deps, principal: Principal, given: string): Promise<NotificationAddressView> {
  const email = given.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) throw validationError('email must be an email address');
  await requireRole(deps, principal, SETTINGS_MANAGERS, MANAGE_MESSAGE);
  const mailed = await deps.db.transaction(async (tx) => {
    const organization = await lockedOrganization(tx, principal.organizationId);
    if (email === noticeAddressOf(organization)) throw conflict(`Notices go to ${email} already`);
    if (email === organization.ownerEmail) {
      await useOwnersAddress(tx, deps, organization, byPrincipal(principal));
      return null;
    }
    const id = await mailLink(tx, deps, organization, email, principal.userId);
    await recordAudit(tx, deps, {
      organizationId: organization.id,
      by: byPrincipal(principal),
      action: 'organization.notification_address_requested',
      target: { type: 'organization', id: organization.id, label: email },
      details: { current: noticeAddressOf(organization) },
    });
    return id;
  });
  if (mailed) deps.jobs.wake('system-mail', mailed);
  return describeNotificationAddress(deps, principal);
}

/** A new link for the address waiting for confirmation (the earlier one stops working); throttled as the owner's. */
export async function resendNotificationLink(deps: Deps, principal: Principal): Promise<{ sentTo: string }> {
  await requireRole(deps, principal, SETTINGS_MANAGERS, MANAGE_MESSAGE);
  const mailed = await deps.db.transaction(async (tx) => {
    const organization = await lockedOrganization(tx, principal.organizationId);
    const pending = await pendingLink(tx, organization.id);
    if (!pending) throw conflict('No notification address is waiting for confirmation');
    return { id: await mailLink(tx, deps, organization, pending.email, principal.userId), to: pending.email };
  });
  deps.jobs.wake('system-mail', mailed.id);
  return { sentTo: mailed.to };
}

/** Back to the owner's address, and any address waiting for confirmation is dropped (its link stops working). */
async function useOwnersAddress(tx: Db, deps: Pick<Deps, 'clock'>, organization: typeof organizations.$inferSelect, by: AuditSource): Promise<void> {
  const dropped = await replacePending(tx, organization.id, deps.clock.now()).returning({ email: notificationConfirmations.email });
  if (organization.notificationEmail === null && dropped.length === 0) throw conflict(`Notices go to the owner's address (${organization.ownerEmail}) already`);
  await tx.update(organizations).set({ notificationEmail: null }).where(eq(organizations.id, organization.id));
  await recordAudit(tx, deps, {
    organizationId: organization.id,
    by,
    action: 'organization.notification_address_reset',
    target: { type: 'organization', id: organization.id, label: organization.ownerEmail },
    details: { from: organization.notificationEmail, droppedPending: dropped[0]?.email ?? null },
  });
}

/** "Use the owner's address": notices go to the owner again; a pending address is dropped. 409 when nothing would change. */
export async function resetNotificationAddress(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<NotificationAddressView> {
  await requireRole(deps, principal, SETTINGS_MANAGERS, MANAGE_MESSAGE);
  await deps.db.transaction(async (tx) => useOwnersAddress(tx, deps, await lockedOrganization(tx, principal.organizationId), byPrincipal(principal)));
  return describeNotificationAddress(deps, principal);
}

async function linkRow(db: Db, token: string): Promise<Confirmation | null> {
  if (!CONFIRMATION_TOKEN.test(token)) return null;
  const [row] = await db.select().from(notificationConfirmations).where(eq(notificationConfirmations.tokenHash, hashOf(token)));
  return row ?? null;
}

// A replaced link reads as expired: the page asks for a new one either way.
const stateOf = (row: Confirmation | null, now: Date): LinkState =>
  !row ? 'unknown' : row.usedAt ? 'used' : row.replacedAt || row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'valid';

/** The confirmation page's question (GET): changes nothing. */
export async function describeNotificationLink(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<{ state: LinkState; email: string | null }> {
  const row = await linkRow(deps.db, token);
  return { state: stateOf(row, deps.clock.now()), email: row?.email ?? null };
}

/**
 * The page's form (POST): uses the link once, before it expires and while no newer one replaced
 * it, and makes its address the organization's notification address. One conditional update, so
 * two clicks at once confirm once. Recorded as done by the member who asked for it.
 */
export async function confirmNotificationAddress(deps: Pick<Deps, 'db' | 'clock'>, token: string, origin: RequestOrigin | null = null): Promise<{ state: LinkState | 'confirmed'; email: string | null }> {
  if (!CONFIRMATION_TOKEN.test(token)) return { state: 'unknown', email: null };
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(notificationConfirmations)
      .set({ usedAt: now })
      .where(
        and(
          eq(notificationConfirmations.tokenHash, hashOf(token)),
          isNull(notificationConfirmations.usedAt),
          isNull(notificationConfirmations.replacedAt),
          gt(notificationConfirmations.expiresAt, now),
        ),
      )
      .returning();
    if (!used) {
      const row = await linkRow(tx, token);
      return { state: stateOf(row, now), email: row?.email ?? null };
    }
    const [before] = await tx.select({ notificationEmail: organizations.notificationEmail }).from(organizations).where(eq(organizations.id, used.organizationId)).for('update');
    if (!before) return { state: 'unknown' as const, email: null };
    await tx.update(organizations).set({ notificationEmail: used.email }).where(eq(organizations.id, used.organizationId));
    await recordAudit(tx, deps, {
      organizationId: used.organizationId,
      by: { actor: used.requestedBy ? { kind: 'user', userId: used.requestedBy } : { kind: 'operator' }, origin },
      action: 'organization.notification_address_confirmed',
      target: { type: 'organization', id: used.organizationId, label: used.email },
      details: { from: before.notificationEmail, via: 'link' },
    });
    return { state: 'confirmed' as const, email: used.email };
  });
}
