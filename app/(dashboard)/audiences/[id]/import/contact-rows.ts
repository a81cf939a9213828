import { NO_ADDRESS, unreadableSubscription, wrongColumnCount } from '@/server/services/contact-imports/cells';
import type { CsvRecord } from '../../../../lib/csv';
import { parseSubscription, type SubscriptionColumn } from './subscription-cell';

/** What one row of the file says, as the preview shows it. */
export interface ContactFields {
  email: string;
  name?: string;
  subscribed?: boolean;
}

/** A row the import will store, with its line in the file. */
export interface ImportRow {
  row: number;
  contact: ContactFields;
}

/** A row the import leaves out (foreseen by the preview, or reported by the import), and why. */
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

/** The contact's name: the name cell, else the first and last names joined ("Ada Lovelace"); empty when none is given. */
function nameOf(cell: (index: number | null) => string, mapping: ColumnMapping): string {
  const whole = cell(mapping.name);
  if (whole) return whole;
  return [cell(mapping.firstName), cell(mapping.lastName)].filter(Boolean).join(' ');
}

/**
 * The file's data records as the import will read them, for the preview: a record is left out,
 * with the reason the import will give (server/services/contact-imports/rows.ts), when its number
 * of columns differs from the first row's, when its address cell is empty, or when its
 * subscription cell says neither yes nor no; the address itself is the import's to judge. The
 * import turns an opt-out on, never off (docs/audiences.md).
 */
export function mapRecords(records: CsvRecord[], columns: number, mapping: ColumnMapping): { rows: ImportRow[]; skipped: SkippedRow[] } {
  const rows: ImportRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const { fields, line } of records) {
    const cell = (index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
    const email = cell(mapping.email);
    if (fields.length !== columns) {
      skipped.push({ row: line, email, error: wrongColumnCount(fields.length, columns) });
      continue;
    }
    if (!email) {
      skipped.push({ row: line, email, error: NO_ADDRESS });
      continue;
    }
    const contact: ContactFields = { email };
    const name = nameOf(cell, mapping);
    if (name) contact.name = name;
    if (mapping.subscription !== null) {
      const raw = cell(mapping.subscription);
      const subscribed = parseSubscription(raw, mapping.subscriptionColumn);
      if (subscribed === null) {
        skipped.push({ row: line, email, error: unreadableSubscription(mapping.subscriptionColumn, raw) });
        continue;
      }
      if (subscribed !== undefined) contact.subscribed = subscribed;
    }
    rows.push({ row: line, contact });
  }
  return { rows, skipped };
}

/** Skipped rows in file order, the first `limit` of them, and how many more there are. */
export function firstSkipped(skipped: SkippedRow[], limit = 100): { shown: SkippedRow[]; more: number } {
  const sorted = [...skipped].sort((a, b) => a.row - b.row);
  return { shown: sorted.slice(0, limit), more: Math.max(0, sorted.length - limit) };
}
