import { desc, eq } from 'drizzle-orm';
import { organizationExports, organizations, users } from '@/db/schema';
import type { Db } from '@/db/client';
import { organizationDeletionEmail } from '@/emails/organization-deletion';
import type { Deps } from '../../deps';
import { conflict, notFound, validationError } from '../../errors';
import { newId } from '../../ids';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import { DAY_MS } from '../shared/time';
import { enqueueSystemEmail } from '../system-mail/queue';
import { SETTINGS_MANAGERS } from '../../vocabulary/roles';
import { DELETION_GRACE_DAYS } from '../../vocabulary/organization-deletion';
import { buildOrganizationExport } from './export';
import { noticeAddressOf } from './notice-address';
import { requireOwner, requireRole } from './owners';
import { restoreRenewalAfterCancelledDeletion, stopRenewalForDeletion } from '../billing/deletion-renewal';

export { DELETION_GRACE_DAYS };

export interface DeletionView {
  requestedAt: string;
  eraseAfter: string;
}

const OWNER_MESSAGE = 'Only the owner deletes the organization or cancels its deletion';

const lockedOrganization = async (tx: Db, id: string) => {
  const [organization] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
  if (!organization) throw notFound('Organization');
  return organization;
};

/**
 * The owner asks to delete the organization, typing its name. From now its API keys are refused
 * and it sends nothing new (server/services/api-keys/admission.ts, emails/accept/checks.ts); an
 * export of what it holds is made now, downloadable until {@link DELETION_GRACE_DAYS} days have
 * passed, when the hourly sweep erases it all (erase.ts). A second request is a 409.
 */
export async function requestDeletion(deps: Deps, principal: Principal, typedName: string): Promise<DeletionView> {
  await requireOwner(deps, principal, OWNER_MESSAGE);
  const { view, emailId } = await deps.db.transaction(async (tx) => {
    const organization = await lockedOrganization(tx, principal.organizationId);
    if (organization.deletionRequestedAt) throw conflict(`Deletion was asked for already; the organization is erased after ${organization.eraseAfter!.toISOString()}`);
    if (typedName.trim() !== organization.name) throw validationError(`Type the organization's name, ${organization.name}, to confirm`);
    const now = deps.clock.now();
    const eraseAfter = new Date(now.getTime() + DELETION_GRACE_DAYS * DAY_MS);
    await tx.insert(organizationExports).values({ id: newId(), organizationId: organization.id, content: await buildOrganizationExport(tx, organization.id, now), createdAt: now });
    await tx.update(organizations).set({ deletionRequestedAt: now, eraseAfter }).where(eq(organizations.id, organization.id));
    await recordAudit(tx, deps, {
      organizationId: organization.id,
      by: byPrincipal(principal),
      action: 'organization.deletion_requested',
      target: { type: 'organization', id: organization.id, label: organization.name },
      details: { eraseAfter: eraseAfter.toISOString(), graceDays: DELETION_GRACE_DAYS },
    });
    const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, principal.userId!));
    const emailId = await enqueueSystemEmail(tx, deps, {
      organizationId: organization.id,
      kind: 'organization_deletion',
      to: noticeAddressOf(organization),
      email: organizationDeletionEmail({ organizationName: organization.name, requestedBy: person?.email ?? 'The owner', eraseAfter, settingsUrl: `${deps.config.appUrl.replace(/\/+$/, '')}/settings` }),
    });
    return { view: { requestedAt: now.toISOString(), eraseAfter: eraseAfter.toISOString() }, emailId };
  });
  deps.jobs.wake('system-mail', emailId);
  await stopRenewalForDeletion(deps, principal.organizationId);
  return view;
}

/** The owner takes the deletion back during the grace period: keys and sending work again, the export is dropped. 409 when none is pending. */
export async function cancelDeletion(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log'>, principal: Principal): Promise<void> {
  await requireOwner(deps, principal, OWNER_MESSAGE);
  await deps.db.transaction(async (tx) => {
    const organization = await lockedOrganization(tx, principal.organizationId);
    if (!organization.deletionRequestedAt) throw conflict('No deletion is pending for this organization');
    await tx.update(organizations).set({ deletionRequestedAt: null, eraseAfter: null }).where(eq(organizations.id, organization.id));
    await tx.delete(organizationExports).where(eq(organizationExports.organizationId, organization.id));
    await recordAudit(tx, deps, {
      organizationId: organization.id,
      by: byPrincipal(principal),
      action: 'organization.deletion_cancelled',
      target: { type: 'organization', id: organization.id, label: organization.name },
      details: { requestedAt: organization.deletionRequestedAt.toISOString(), eraseAfter: organization.eraseAfter?.toISOString() ?? null },
    });
  });
  await restoreRenewalAfterCancelledDeletion(deps, principal.organizationId);
}

/** The export made when deletion was asked for (JSON); 404 when no deletion is pending. For the owner and admins, who read all of it in the dashboard anyway. */
export async function deletionExport(deps: Pick<Deps, 'db'>, principal: Principal): Promise<{ fileName: string; content: string }> {
  await requireRole(deps, principal, SETTINGS_MANAGERS, 'Only the owner or an admin downloads the export');
  const [row] = await deps.db
    .select({ content: organizationExports.content, createdAt: organizationExports.createdAt })
    .from(organizationExports)
    .where(eq(organizationExports.organizationId, principal.organizationId))
    .orderBy(desc(organizationExports.createdAt))
    .limit(1);
  if (!row) throw notFound('Export');
  return { fileName: `organization-${principal.organizationId}-${row.createdAt.toISOString().slice(0, 10)}.json`, content: row.content };
}
