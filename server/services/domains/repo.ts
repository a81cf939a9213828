import { and, desc, eq, isNull } from 'drizzle-orm';
import { dkimKeys, domains } from '@/db/schema';
import type { Db } from '@/db/client';
import { notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import type { DkimKeyRow, DomainRow } from './view';

/** The organization's domain with this id, or null: another organization's domain is never visible. */
export async function findOwnDomain(db: Db, organizationId: string, id: string, { lock = false } = {}): Promise<DomainRow | null> {
  const query = db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.organizationId, organizationId)));
  const [domain] = lock ? await query.for('update') : await query;
  return domain ?? null;
}

/** The caller's domain with this id; 404 for anything else, another organization's domain included. `lock` holds its row for the transaction. */
export async function ownDomain(db: Db, principal: Principal, id: string, options: { lock?: boolean } = {}): Promise<DomainRow> {
  const row = await findOwnDomain(db, principal.organizationId, id, options);
  if (!row) throw notFound('Domain');
  return row;
}

export async function activeKey(db: Db, domainId: string): Promise<DkimKeyRow> {
  const [key] = await db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), isNull(dkimKeys.retiredAt)))
    .orderBy(desc(dkimKeys.id))
    .limit(1);
  if (!key) throw new Error(`domain ${domainId} has no active DKIM key`);
  return key;
}
