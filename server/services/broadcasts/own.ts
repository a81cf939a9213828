import { and, eq } from 'drizzle-orm';
import { broadcasts } from '@/db/schema';
import type { Db } from '@/db/client';
import { notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import type { BroadcastRow } from './view';

/** The organization's broadcast, or 404 (another organization's is not found either); `lock` holds its row to the end of the transaction. */
export async function ownBroadcast(db: Db, principal: Pick<Principal, 'organizationId'>, id: string, lock = false): Promise<BroadcastRow> {
  const query = db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.id, id), eq(broadcasts.organizationId, principal.organizationId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound('Broadcast');
  return row;
}
