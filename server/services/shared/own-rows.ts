import { and, count, eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { conflict, notFound } from '../../errors';
import type { Principal } from './principal';

/** A table whose rows each belong to one organization, by `id` and `organization_id`. */
export type OrganizationRows = PgTable & { id: AnyPgColumn; organizationId: AnyPgColumn };

/**
 * The organization's row of `table`, or 404 "`what` not found": another organization's row is
 * not found either, so an id never tells whether it exists elsewhere. `lock` holds it for update.
 */
export async function ownRow<T extends OrganizationRows>(db: Db, table: T, what: string, principal: Pick<Principal, 'organizationId'>, id: string, lock = false): Promise<T['$inferSelect']> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.organizationId, principal.organizationId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}

/**
 * 409 when the organization has `limit.most` rows of `table` already, naming them (`plural`).
 * Counted without a lock: two creations at once may both pass, so this suits a limit that keeps a
 * list readable, not one that is billed.
 */
export async function refuseAtLimit(db: Db, table: OrganizationRows, principal: Pick<Principal, 'organizationId'>, limit: { most: number; plural: string }): Promise<void> {
  const [{ n }] = (await db.select({ n: count() }).from(table as PgTable).where(eq(table.organizationId, principal.organizationId))) as [{ n: number }];
  if (n >= limit.most) throw conflict(`The organization has ${limit.most} ${limit.plural}, the most it may have: delete one first`);
}
