import { and, desc, eq } from 'drizzle-orm';
import { audiences } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import type { Principal } from '../shared/principal';
import { byPrincipal, recordAudit } from '../audit/record';
import { audienceHeldBy } from './holds';
import { deleteAudienceAndOrphans } from './delete-orphans';
import { reengagementColumns, reengagementView, type ReengagementInput, type ReengagementView } from '../sunset/setting';

export type AudienceRow = typeof audiences.$inferSelect;

export interface AudienceView {
  id: string;
  name: string;
  contactCount: number;
  /** Sunset by human engagement after this many months (services/sunset); null: off. */
  sunsetAfterMonths: number | null;
  /** The re-engagement email sent before sunset (services/sunset/setting.ts); null: none. */
  sunsetReengagement: ReengagementView | null;
  createdAt: string;
}

const view = (row: AudienceRow): AudienceView => ({
  id: row.id,
  name: row.name,
  contactCount: row.contactCount,
  sunsetAfterMonths: row.sunsetAfterMonths,
  sunsetReengagement: reengagementView(row),
  createdAt: row.createdAt.toISOString(),
});

/** The organization's audience, or 404 (another organization's is not found either). */
export async function ownAudience(db: Db, principal: Pick<Principal, 'organizationId'>, id: string): Promise<AudienceRow> {
  const [row] = await db
    .select()
    .from(audiences)
    .where(and(eq(audiences.id, id), eq(audiences.organizationId, principal.organizationId)));
  if (!row) throw notFound('Audience');
  return row;
}

export async function createAudience(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: Principal,
  input: { name: string; sunsetAfterMonths?: number | null; sunsetReengagement?: ReengagementInput | null },
): Promise<AudienceView> {
  return deps.db.transaction(async (tx) => {
    const sunsetAfterMonths = input.sunsetAfterMonths ?? null;
    const reengagement = await reengagementColumns(tx, deps, principal, input.sunsetReengagement ?? null);
    const [row] = await tx
      .insert(audiences)
      .values({ id: newId(), organizationId: principal.organizationId, name: input.name, sunsetAfterMonths, ...reengagement, createdAt: deps.clock.now() })
      .returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'audience.created',
      target: { type: 'audience', id: row!.id, label: row!.name },
      details: sunsetAfterMonths !== null || reengagement.sunsetReengagementFrom ? { ...(sunsetAfterMonths !== null ? { sunsetAfterMonths } : {}), ...(reengagement.sunsetReengagementFrom ? { sunsetReengagement: true } : {}) } : undefined,
    });
    return view(row!);
  });
}

/** Newest first, each with its count as kept by the statements that add and remove contacts (no rows counted). */
export async function listAudiences(deps: Pick<Deps, 'db'>, principal: Principal): Promise<AudienceView[]> {
  const rows = await deps.db.select().from(audiences).where(eq(audiences.organizationId, principal.organizationId)).orderBy(desc(audiences.id));
  return rows.map(view);
}

export async function getAudience(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<AudienceView> {
  return view(await ownAudience(deps.db, principal, id));
}

/**
 * Deletes the audience with its contacts, unless something that sends to it holds it (409): its
 * memberships, and every contact left in no audience; a contact also in another audience stays there.
 */
export async function deleteAudience(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(audiences)
      .where(and(eq(audiences.id, id), eq(audiences.organizationId, principal.organizationId)))
      .for('update');
    if (!row) throw notFound('Audience');
    const held = await audienceHeldBy(tx, row.id);
    if (held) throw conflict(`The audience cannot be deleted: ${held}`);
    // A rule segment is a view of contacts that exist without it: it goes alone.
    if (row.rules) await tx.delete(audiences).where(eq(audiences.id, row.id));
    else await deleteAudienceAndOrphans(tx, row.organizationId, row.id);
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'audience.deleted', target: { type: 'audience', id: row.id, label: row.name }, details: { contacts: row.contactCount } });
  });
}
