import { and, eq, like, type SQL } from 'drizzle-orm';
import { contacts } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { contactView, type ContactView } from './fields';

/** `%`, `_` and `\` of a search are meant literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * An audience's contacts, newest first, in cursor pages; `search` is a case-insensitive substring
 * of the address (addresses are stored lowercase, so a LIKE on the lowercased term, which the
 * trigram index serves), `subscribed` filters on the subscription.
 */
export async function listContacts(
  deps: Pick<Deps, 'db'>,
  principal: Principal,
  audienceId: string,
  query: { limit: number; cursor?: string; search?: string; subscribed?: boolean },
): Promise<Page<ContactView>> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const page = await fetchPage(contacts.id, query, ({ where, orderBy, limit }) => {
    const conditions: Array<SQL | undefined> = [eq(contacts.audienceId, audience.id), where];
    if (query.search) conditions.push(like(contacts.email, `%${literal(query.search.toLowerCase())}%`));
    if (query.subscribed !== undefined) conditions.push(eq(contacts.subscribed, query.subscribed));
    return deps.db
      .select()
      .from(contacts)
      .where(and(...conditions))
      .orderBy(orderBy)
      .limit(limit);
  });
  return { data: page.data.map(contactView), nextCursor: page.nextCursor };
}

export async function getContact(deps: Pick<Deps, 'db'>, principal: Principal, audienceId: string, id: string): Promise<ContactView> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const [row] = await deps.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.audienceId, audience.id), eq(contacts.id, id)));
  if (!row) throw notFound('Contact');
  return contactView(row);
}

/** The contact of this (normalised) address in the audience. */
export async function contactByAddress(deps: Pick<Deps, 'db'>, audienceId: string, email: string): Promise<ContactView> {
  const [row] = await deps.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.audienceId, audienceId), eq(contacts.email, email)));
  if (!row) throw notFound('Contact');
  return contactView(row);
}
