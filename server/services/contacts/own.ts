import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts } from '@/db/schema';
import { notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import { canonicalContactId } from './aliases';
import { contactAddressOrRefuse } from './fields';
import type { ContactTarget } from './target';

export type ContactRow = typeof contacts.$inferSelect;

/**
 * The organization's contact a path names (`/contacts/{idOrEmail}`): by id (a merged contact's
 * former id too), or by address in any spelling. 404 when it is not the organization's; 400 naming
 * `field` when the address is not one. `lock` takes the contact's row for the caller's transaction.
 */
export async function ownContact(db: Db, principal: Pick<Principal, 'organizationId'>, target: ContactTarget, options: { lock?: boolean; field?: string } = {}): Promise<ContactRow> {
  const condition =
    'id' in target ? eq(contacts.id, await canonicalContactId(db, principal.organizationId, target.id)) : eq(contacts.email, contactAddressOrRefuse(target.email, options.field ?? 'idOrEmail'));
  const query = db
    .select()
    .from(contacts)
    .where(and(eq(contacts.organizationId, principal.organizationId), condition));
  const [row] = await (options.lock ? query.for('update') : query);
  if (!row) throw notFound('Contact');
  return row;
}
