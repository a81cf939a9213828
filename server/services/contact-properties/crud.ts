import { and, asc, eq, sql } from 'drizzle-orm';
import { contactProperties, contacts, type ContactPropertyType, type ContactPropertyValue } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { conflict, validationError } from '../../errors';
import { newId } from '../../ids';
import { ownRow, refuseAtLimit } from '../shared/own-rows';
import type { Principal } from '../shared/principal';
import { byPrincipal, recordAudit } from '../audit/record';
import { propertyKeyProblem } from './keys';
import { propertyValueOf } from './values';

/** Properties an organization may define: enough for any contact model we have seen, few enough to list on one page. */
export const CONTACT_PROPERTY_LIMIT = 100;

export type ContactPropertyRow = typeof contactProperties.$inferSelect;

export interface ContactPropertyView {
  id: string;
  key: string;
  type: ContactPropertyType;
  fallbackValue: ContactPropertyValue | null;
  createdAt: string;
  updatedAt: string;
}

const view = (row: ContactPropertyRow): ContactPropertyView => ({
  id: row.id,
  key: row.key,
  type: row.type,
  fallbackValue: row.fallbackValue ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A fallback checked against the property's type; null clears it. */
function fallbackOf(type: ContactPropertyType, value: unknown): ContactPropertyValue | null {
  if (value === null || value === undefined) return null;
  const checked = propertyValueOf(type, value);
  if ('error' in checked) throw validationError(`fallback_value: ${checked.error} (the property is of type ${type})`);
  return checked.value;
}

/** The organization's property, or 404 (another organization's is not found either). */
export const ownContactProperty = (db: Db, principal: Pick<Principal, 'organizationId'>, id: string, lock = false): Promise<ContactPropertyRow> =>
  ownRow(db, contactProperties, 'Contact property', principal, id, lock);

export async function createContactProperty(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: Principal,
  input: { key: string; type: ContactPropertyType; fallbackValue?: unknown },
): Promise<ContactPropertyView> {
  const keyProblem = propertyKeyProblem(input.key);
  if (keyProblem) throw validationError(`key: ${keyProblem}`);
  const fallbackValue = fallbackOf(input.type, input.fallbackValue);
  return deps.db.transaction(async (tx) => {
    await refuseAtLimit(tx, contactProperties, principal, { most: CONTACT_PROPERTY_LIMIT, plural: 'contact properties' });
    const now = deps.clock.now();
    const [row] = await tx
      .insert(contactProperties)
      .values({ id: newId(), organizationId: principal.organizationId, key: input.key, type: input.type, fallbackValue, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(`A contact property with the key "${input.key}" exists already`);
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'contact_property.created', target: { type: 'contact_property', id: row.id, label: row.key }, details: { type: row.type } });
    return view(row);
  });
}

/** Oldest first: the order they were defined in, which is the order forms show them in. */
export async function listContactProperties(deps: Pick<Deps, 'db'>, principal: Principal): Promise<ContactPropertyView[]> {
  const rows = await deps.db.select().from(contactProperties).where(eq(contactProperties.organizationId, principal.organizationId)).orderBy(asc(contactProperties.createdAt), asc(contactProperties.id));
  return rows.map(view);
}

export async function getContactProperty(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<ContactPropertyView> {
  return view(await ownContactProperty(deps.db, principal, id));
}

/** Only the fallback changes: the key and the type are what stored values were checked against. */
export async function updateContactProperty(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string, input: { fallbackValue?: unknown }): Promise<ContactPropertyView> {
  return deps.db.transaction(async (tx) => {
    const before = await ownContactProperty(tx, principal, id, true);
    if (input.fallbackValue === undefined) return view(before);
    const fallbackValue = fallbackOf(before.type, input.fallbackValue);
    if (JSON.stringify(fallbackValue) === JSON.stringify(before.fallbackValue ?? null)) return view(before);
    const [row] = await tx.update(contactProperties).set({ fallbackValue, updatedAt: deps.clock.now() }).where(eq(contactProperties.id, id)).returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'contact_property.updated',
      target: { type: 'contact_property', id, label: before.key },
      details: { fallbackValue: { from: before.fallbackValue ?? null, to: fallbackValue } },
    });
    return view(row!);
  });
}

export async function deleteContactProperty(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await ownContactProperty(tx, principal, id, true);
    await tx.delete(contactProperties).where(eq(contactProperties.id, row.id));
    // Its values go with it: a property made again under this key, maybe of another type, starts
    // with none rather than with values checked against the old type.
    await tx
      .update(contacts)
      .set({ properties: sql`${contacts.properties} - ${row.key}::text` })
      .where(and(eq(contacts.organizationId, principal.organizationId), sql`${contacts.properties} -> ${row.key}::text is not null`));
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'contact_property.deleted', target: { type: 'contact_property', id: row.id, label: row.key } });
  });
}
