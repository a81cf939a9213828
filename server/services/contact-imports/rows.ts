import type { ContactPropertyType, ContactPropertyValue } from '@/db/schema';
import type { ImportColumns } from '../../vocabulary/contact-imports';
import { propertyValueOf } from '../contact-properties/values';
import { AddressError } from '../shared/addresses';
import { contactAddress } from '../contacts/fields';
import { CONTACT_NAME_MAX } from '../contacts/names';
import { NO_ADDRESS, parseSubscription, parseYesNo, unreadableSubscription, wrongColumnCount } from './cells';
import type { CsvRecord } from './csv-records';

/** What one row of an import says about its contact; a field not given (an empty cell) leaves the contact's as it is. */
export interface ImportRowValues {
  /** As stored: lowercase, an IDN domain in ASCII. */
  email: string;
  /** The name cell, else the first and last names joined. */
  name?: string;
  firstName?: string;
  lastName?: string;
  /** Unsubscribed from everything; a "no" changes nothing (an import never removes an opt-out). */
  unsubscribed?: true;
  /** The subscription in the import's segments: false turns it off there, true leaves it (a new member is subscribed). */
  subscribed?: boolean;
  properties: Record<string, ContactPropertyValue>;
}

export type RowReading = { values: ImportRowValues } | { email: string; error: string };

// A decimal number as spreadsheets write it; not hexadecimal, not Infinity, not empty.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A property's cell as its value, checked by the property's type (contact-properties/values.ts). */
export function propertyCell(type: ContactPropertyType, cell: string): { value: ContactPropertyValue } | { error: string } {
  switch (type) {
    case 'number':
      return DECIMAL.test(cell) ? propertyValueOf('number', Number(cell)) : { error: `"${cell}" is not a number` };
    case 'boolean': {
      const yes = parseYesNo(cell);
      return typeof yes === 'boolean' ? { value: yes } : { error: `"${cell}" is not true or false` };
    }
    default:
      return propertyValueOf(type, cell);
  }
}

/**
 * One record of the file read by the import's columns: the address parsed as the contact routes
 * parse it, the names within their bound, the yes/no cells read (cells.ts), each property's value
 * checked by its type. Cells are trimmed; an empty one is not given. The first problem is the
 * row's reason, named after its field.
 */
export function readRow(record: CsvRecord, columns: ImportColumns, columnCount: number, propertyTypes: ReadonlyMap<string, ContactPropertyType>): RowReading {
  const cell = (index: number | undefined) => (index === undefined ? '' : (record.fields[index] ?? '').trim());
  const raw = cell(columns.email);
  if (record.fields.length !== columnCount) return { email: raw, error: wrongColumnCount(record.fields.length, columnCount) };
  if (!raw) return { email: raw, error: NO_ADDRESS };
  let email: string;
  try {
    email = contactAddress(raw);
  } catch (error) {
    if (error instanceof AddressError) return { email: raw, error: `email: ${error.message}` };
    throw error;
  }
  const values: ImportRowValues = { email, properties: {} };
  for (const [field, key] of [['name', 'name'], ['first_name', 'firstName'], ['last_name', 'lastName']] as const) {
    const text = cell(columns[key]);
    if (text.length > CONTACT_NAME_MAX) return { email: raw, error: `${field}: must be at most ${CONTACT_NAME_MAX} characters` };
    if (text) values[key] = text;
  }
  // The rule, and the dashboard's preview: a row that gives first or last names and no name
  // gives "first last" as the name.
  if (values.name === undefined && (values.firstName || values.lastName)) {
    values.name = [values.firstName, values.lastName].filter(Boolean).join(' ');
    if (values.name.length > CONTACT_NAME_MAX) return { email: raw, error: `first_name, last_name: together longer than ${CONTACT_NAME_MAX} characters, the longest name` };
  }
  if (columns.unsubscribed !== undefined) {
    const text = cell(columns.unsubscribed);
    const subscribed = parseSubscription(text, 'unsubscribed');
    if (subscribed === null) return { email: raw, error: unreadableSubscription('unsubscribed', text) };
    if (subscribed === false) values.unsubscribed = true;
  }
  if (columns.subscription) {
    const text = cell(columns.subscription.column);
    const subscribed = parseSubscription(text, columns.subscription.kind);
    if (subscribed === null) return { email: raw, error: unreadableSubscription(columns.subscription.kind, text) };
    if (subscribed !== undefined) values.subscribed = subscribed;
  }
  for (const { key, column } of columns.properties) {
    const text = cell(column);
    if (!text) continue;
    const type = propertyTypes.get(key);
    if (!type) return { email: raw, error: `properties.${key}: no contact property has this key any more` };
    const checked = propertyCell(type, text);
    if ('error' in checked) return { email: raw, error: `properties.${key}: ${checked.error}` };
    values.properties[key] = checked.value;
  }
  return { values };
}
