import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactProperties, type ContactPropertyValue } from '@/db/schema';
import { validationError } from '../../errors';
import { propertyValueOf } from './values';

/** Values to write on a contact: those to set, checked by type, and the keys a `null` clears. */
export interface PropertyChanges {
  set: Record<string, ContactPropertyValue>;
  clear: string[];
}

export const NO_PROPERTY_CHANGES: PropertyChanges = { set: {}, clear: [] };

/**
 * The given values checked against the organization's properties (docs/contacts.md): each key
 * must be one of them (exactly), each value of its type; `null` clears a value. The first problem
 * is a 400 naming `properties.<key>`.
 */
export async function propertyChangesOf(db: Db, organizationId: string, given: Record<string, unknown> | undefined): Promise<PropertyChanges> {
  if (Object.keys(given ?? {}).length === 0) return NO_PROPERTY_CHANGES;
  return (await propertyChecker(db, organizationId))(given);
}

/** {@link propertyChangesOf} for many rows: the organization's properties read once. */
export async function propertyChecker(db: Db, organizationId: string): Promise<(given: Record<string, unknown> | undefined) => PropertyChanges> {
  const defined = new Map(
    (await db.select({ key: contactProperties.key, type: contactProperties.type }).from(contactProperties).where(eq(contactProperties.organizationId, organizationId))).map(
      (row) => [row.key, row.type],
    ),
  );
  return (given) => {
    const changes: PropertyChanges = { set: {}, clear: [] };
    for (const [key, value] of Object.entries(given ?? {})) {
      const type = defined.get(key);
      if (!type) throw validationError(`properties.${key}: no contact property has this key; create it first (POST /contact-properties)`);
      if (value === null) {
        changes.clear.push(key);
        continue;
      }
      const checked = propertyValueOf(type, value);
      if ('error' in checked) throw validationError(`properties.${key}: ${checked.error}`);
      changes.set[key] = checked.value;
    }
    return changes;
  };
}

/** The contact's values after the changes. */
export function withPropertyChanges(current: Record<string, ContactPropertyValue>, changes: PropertyChanges): Record<string, ContactPropertyValue> {
  const next = { ...current, ...changes.set };
  for (const key of changes.clear) delete next[key];
  return next;
}
