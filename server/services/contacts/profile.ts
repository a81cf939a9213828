import { and, eq, exists, sql, type SQL } from 'drizzle-orm';
import { audienceMemberships, contacts, type ContactPropertyValue } from '@/db/schema';
import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { fetchPage, type Page } from '../shared/pagination';
import { containsLowercase } from '../shared/substring-search';
import type { Principal } from '../shared/principal';
import { ownContact, type ContactRow } from './own';
import type { ContactTarget } from './target';

/** A contact of the organization as `/contacts` answers it (Resend's contact, in the spec's camelCase). */
export interface ContactProfileView {
  id: string;
  email: string;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  /** Unsubscribed from everything the organization sends to lists (true while pending). */
  unsubscribed: boolean;
  /** Asked to confirm (double opt-in) and not confirmed yet: it gets nothing meanwhile. */
  pending: boolean;
  properties: Record<string, ContactPropertyValue>;
  /** Kept past the log's retention: when mail last reached the contact, and when a person (not a scanner) last opened or clicked. */
  engagement: { lastDeliveredAt: string | null; lastOpenedAt: string | null; lastClickedAt: string | null };
  createdAt: string;
  updatedAt: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const profileView = (row: ContactRow): ContactProfileView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  firstName: row.firstName,
  lastName: row.lastName,
  unsubscribed: row.unsubscribed,
  pending: row.pendingSince !== null,
  properties: row.properties,
  engagement: { lastDeliveredAt: iso(row.lastDeliveredAt), lastOpenedAt: iso(row.lastOpenedAt), lastClickedAt: iso(row.lastClickedAt) },
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function getContactProfile(deps: Pick<Deps, 'db'>, principal: Principal, target: ContactTarget): Promise<ContactProfileView> {
  return profileView(await ownContact(deps.db, principal, target));
}

/** `key:value`: contacts whose property `key` is `value` (compared as text: `42`, `true`, `2026-01-31`). */
export interface PropertyFilter {
  key: string;
  value: string;
}

export function propertyFilterOf(text: string): PropertyFilter {
  const colon = text.indexOf(':');
  if (colon <= 0) throw validationError(`property: "${text}" must be key:value`);
  return { key: text.slice(0, colon), value: text.slice(colon + 1) };
}

/**
 * The organization's contacts, newest first, in cursor pages: `search` a substring of the address,
 * `segmentId` those in that segment (audience), `properties` those with each value (ANDed).
 */
export async function listContactProfiles(
  deps: Pick<Deps, 'db'>,
  principal: Principal,
  query: { limit: number; cursor?: string; search?: string; segmentId?: string; properties?: PropertyFilter[] },
): Promise<Page<ContactProfileView>> {
  const segment = query.segmentId ? await ownAudience(deps.db, principal, query.segmentId) : null;
  const page = await fetchPage(contacts.id, query, ({ where, orderBy, limit }) => {
    const conditions: Array<SQL | undefined> = [eq(contacts.organizationId, principal.organizationId), where];
    if (query.search) conditions.push(containsLowercase(contacts.email, query.search));
    if (segment) {
      conditions.push(
        exists(
          deps.db
            .select({ one: sql`1` })
            .from(audienceMemberships)
            .where(and(eq(audienceMemberships.audienceId, segment.id), eq(audienceMemberships.contactId, contacts.id))),
        ),
      );
    }
    for (const filter of query.properties ?? []) conditions.push(sql`${contacts.properties} ->> ${filter.key} = ${filter.value}`);
    return deps.db
      .select()
      .from(contacts)
      .where(and(...conditions))
      .orderBy(orderBy)
      .limit(limit);
  });
  return { data: page.data.map(profileView), nextCursor: page.nextCursor };
}
