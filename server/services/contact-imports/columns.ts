import type { ContactPropertyType } from '@/db/schema';
import { validationError } from '../../errors';
import type { ImportColumns, SubscriptionColumnKind } from '../../vocabulary/contact-imports';

/** A column named by its title in the header, or by its position (1 for the first). */
export type ColumnRef = string | number;

/** Resend's `column_map`, with our `name` and `subscription` beside it (docs/contacts.md, "Imports"). */
export interface ColumnMap {
  email?: ColumnRef;
  name?: ColumnRef;
  firstName?: ColumnRef;
  lastName?: ColumnRef;
  unsubscribed?: ColumnRef;
  subscription?: { column: ColumnRef; kind: SubscriptionColumnKind };
  properties?: Record<string, { column: ColumnRef; type?: ContactPropertyType }>;
}

/** What the file's first record told: its fields are the titles when it is a header. */
export interface FileShape {
  header: string[];
  hasHeader: boolean;
}

/** The fields a file is read into without a `column_map`, by the column's title (any case). */
const DEFAULT_TITLES = { email: 'email', name: 'name', firstName: 'first_name', lastName: 'last_name', unsubscribed: 'unsubscribed' } as const;
const WIRE_NAMES: Record<keyof typeof DEFAULT_TITLES, string> = { email: 'email', name: 'name', firstName: 'first_name', lastName: 'last_name', unsubscribed: 'unsubscribed' };

const listed = (titles: string[]) => {
  const shown = titles.slice(0, 10).map((title) => `"${title}"`).join(', ');
  return titles.length > 10 ? `${shown}…` : shown;
};

/** The 0-based position of a column, or why it names none. */
function positionOf(ref: ColumnRef, shape: FileShape, field: string): number {
  const columns = shape.header.length;
  if (typeof ref === 'number') {
    if (ref >= 1 && ref <= columns) return ref - 1;
    throw validationError(`column_map.${field}: the file has ${columns === 1 ? '1 column' : `${columns} columns`}; there is no column ${ref}`);
  }
  if (!shape.hasHeader) throw validationError(`column_map.${field}: the file has no header (header: false): name the column by its position, 1 for the first`);
  const titles = shape.header.map((title) => title.trim());
  const wanted = ref.trim();
  let found = titles.flatMap((title, index) => (title === wanted ? [index] : []));
  if (found.length === 0) found = titles.flatMap((title, index) => (title.toLowerCase() === wanted.toLowerCase() ? [index] : []));
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw validationError(`column_map.${field}: ${found.length} columns are titled "${wanted}": name it by its position, 1 for the first`);
  throw validationError(`column_map.${field}: the file has no column titled "${wanted}" (its columns: ${listed(titles)})`);
}

/** The column titled `title` (any case), when there is exactly one. */
function titled(shape: FileShape, title: string): number | undefined {
  if (!shape.hasHeader) return undefined;
  const found = shape.header.flatMap((cell, index) => (cell.trim().toLowerCase() === title ? [index] : []));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The columns an import reads, from its `column_map` and the file's header: each named column must
 * exist (by title, exactly or in any case when only one matches, or by position), each property
 * must be one of the organization's (and of the type given, if one is). Without a `column_map`, the
 * columns titled email, name, first_name, last_name and unsubscribed are read; with one, only what
 * it names, and the address from the column titled email unless it names another.
 */
export function resolveColumns(map: ColumnMap | undefined, shape: FileShape, properties: ReadonlyMap<string, ContactPropertyType>): ImportColumns {
  let email: number | undefined;
  if (map?.email !== undefined) email = positionOf(map.email, shape, 'email');
  else {
    email = titled(shape, DEFAULT_TITLES.email);
    if (email === undefined) {
      throw validationError(
        shape.hasHeader
          ? `column_map.email: the file has no column titled "email" (its columns: ${listed(shape.header.map((title) => title.trim()))}): name the address column in column_map`
          : 'column_map.email: the file has no header: name the address column by its position, 1 for the first',
      );
    }
  }
  const columns: ImportColumns = { email, properties: [] };
  for (const field of ['name', 'firstName', 'lastName', 'unsubscribed'] as const) {
    const ref = map?.[field];
    const position = ref !== undefined ? positionOf(ref, shape, WIRE_NAMES[field]) : map ? undefined : titled(shape, DEFAULT_TITLES[field]);
    if (position !== undefined) columns[field] = position;
  }
  if (map?.subscription) columns.subscription = { column: positionOf(map.subscription.column, shape, 'subscription.column'), kind: map.subscription.kind };
  for (const [key, mapping] of Object.entries(map?.properties ?? {})) {
    const type = properties.get(key);
    if (!type) throw validationError(`column_map.properties.${key}: no contact property has this key; create it first (POST /contact-properties)`);
    if (mapping.type && mapping.type !== type) throw validationError(`column_map.properties.${key}: the property is of type ${type}, not ${mapping.type}`);
    columns.properties.push({ key, column: positionOf(mapping.column, shape, `properties.${key}`) });
  }
  return columns;
}
