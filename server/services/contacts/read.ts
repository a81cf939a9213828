import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { audienceMemberships, contacts } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { fetchPage, type Page } from '../shared/pagination';
import { containsLowercase } from '../shared/substring-search';
import type { Principal } from '../shared/principal';
import { audienceContactColumns, contactView, type ContactView } from './fields';

const inAudience = (audienceId: string) => and(eq(audienceMemberships.audienceId, audienceId), eq(audienceMemberships.contactId, contacts.id));

/**
 * An audience's contacts, newest first, in cursor pages; `search` is a case-insensitive substring
 * of the address (addresses are stored lowercase, so a LIKE on the lowercased term, which the
 * trigram index serves), `subscribed` filters on the subscription in this audience (a pending
 * contact is not subscribed).
 */
export async function listContacts(
  deps: Pick<Deps, 'db'>,
  principal: Principal,
  audienceId: string,
  query: { limit: number; cursor?: string; search?: string; subscribed?: boolean },
): Promise<Page<ContactView>> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const page = await fetchPage(audienceMemberships.contactId, query, ({ where, orderBy, limit }) => {
    const conditions: Array<SQL | undefined> = [eq(audienceMemberships.audienceId, audience.id), where];
    if (query.search) conditions.push(containsLowercase(contacts.email, query.search));
    if (query.subscribed !== undefined) conditions.push(query.subscribed ? and(eq(audienceMemberships.subscribed, true), isNull(contacts.pendingSince)) : sql`not (${audienceMemberships.subscribed} and ${contacts.pendingSince} is null)`);
    return deps.db
      .select(audienceContactColumns)
      .from(audienceMemberships)
      .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
      .where(and(...conditions))
      .orderBy(orderBy)
      .limit(limit);
  });
  return { data: page.data.map(contactView), nextCursor: page.nextCursor };
}

/** The audience's contact of this id (a merged contact's former id included), or 404. */
export async function getContact(deps: Pick<Deps, 'db'>, principal: Principal, audienceId: string, id: string): Promise<ContactView> {
  const audience = await ownAudience(deps.db, principal, audienceId);
  const [row] = await deps.db
    .select(audienceContactColumns)
    .from(audienceMemberships)
    .innerJoin(contacts, inAudience(audience.id))
    .where(eq(contacts.id, id));
  if (!row) throw notFound('Contact');
  return contactView(row);
}

/** The contact of this (normalised) address in the audience. */
export async function contactByAddress(deps: Pick<Deps, 'db'>, principal: Pick<Principal, 'organizationId'>, audienceId: string, email: string): Promise<ContactView> {
  const [row] = await deps.db
    .select(audienceContactColumns)
    .from(audienceMemberships)
    .innerJoin(contacts, inAudience(audienceId))
    .where(and(eq(contacts.organizationId, principal.organizationId), eq(contacts.email, email)));
  if (!row) throw notFound('Contact');
  return contactView(row);
}
