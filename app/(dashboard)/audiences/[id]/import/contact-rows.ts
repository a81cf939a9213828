import type { CsvRecord } from '../../../../lib/csv';
import { parseSubscription, type SubscriptionColumn } from './subscription-cell';

/** What one row of the file becomes: the fields `batchContacts` takes. */
export interface ContactFields {
  email: string;
  name?: string;
  subscribed?: boolean;
}

/** A row to upload, with its line in the file so that the server's complaints can point back at it. */
export interface ImportRow {
  row: number;
  contact: ContactFields;
}

/** A row left out, before the upload (the file) or by the server (the address), and why. */
export interface SkippedRow {
  row: number;
  email: string;
  error: string;
}

/** Which column (its index) holds what; only the address is required. */
export interface ColumnMapping {
  email: number | null;
  /** The whole name; first and last name columns fill in where it is empty or not chosen. */
  name: number | null;
  firstName: number | null;
  lastName: number | null;
  subscription: number | null;
  /** What the subscription column lists: a yes there means subscribed, or unsubscribed. */
  subscriptionColumn: SubscriptionColumn;
}

export const EMPTY_MAPPING: ColumnMapping = { email: null, name: null, firstName: null, lastName: null, subscription: null, subscriptionColumn: 'subscribed' };

const columnsWord = (count: number) => (count === 1 ? '1 column' : `${count} columns`);

/** The contact's name: the name cell, else the first and last names joined ("Ada Lovelace"); empty when none is given. */
function nameOf(cell: (index: number | null) => string, mapping: ColumnMapping): string {
  const whole = cell(mapping.name);
  if (whole) return whole;
  return [cell(mapping.firstName), cell(mapping.lastName)].filter(Boolean).join(' ');
}

/**
 * The file's data records as contacts, by the mapping. A record is skipped, with the reason, when
 * its number of columns differs from the first row's, when its address cell is empty, or when its
 * subscription cell says neither yes nor no; the address itself is the server's to judge. The
 * subscription is sent as read: the server turns an opt-out on, never off (docs/audiences.md).
 */
export function mapRecords(records: CsvRecord[], columns: number, mapping: ColumnMapping): { rows: ImportRow[]; skipped: SkippedRow[] } {
  const rows: ImportRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const { fields, line } of records) {
    const cell = (index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
    const email = cell(mapping.email);
    if (fields.length !== columns) {
      skipped.push({ row: line, email, error: `has ${columnsWord(fields.length)} instead of ${columns}` });
      continue;
    }
    if (!email) {
      skipped.push({ row: line, email, error: 'no email address' });
      continue;
    }
    const contact: ContactFields = { email };
    const name = nameOf(cell, mapping);
    if (name) contact.name = name;
    if (mapping.subscription !== null) {
      const raw = cell(mapping.subscription);
      const subscribed = parseSubscription(raw, mapping.subscriptionColumn);
      if (subscribed === null) {
        skipped.push({ row: line, email, error: `${mapping.subscriptionColumn}: "${raw}" is not yes or no (true/false, 1/0, subscribed/unsubscribed)` });
        continue;
      }
      if (subscribed !== undefined) contact.subscribed = subscribed;
    }
    rows.push({ row: line, contact });
  }
  return { rows, skipped };
}
