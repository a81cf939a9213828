import type { CsvRecord } from '../../../../lib/csv';

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
  name: number | null;
  subscribed: number | null;
}

export const MAPPED_FIELDS = ['email', 'name', 'subscribed'] as const;

const normalise = (title: string) =>
  title
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]+/g, ' ');

const EMAIL_TITLES = ['email', 'e mail', 'email address', 'e mail address', 'emailaddress', 'mail', 'address', 'contact email'];
const NAME_TITLES = ['name', 'full name', 'fullname', 'display name', 'contact name', 'first name', 'firstname'];
const SUBSCRIBED_TITLES = ['subscribed', 'subscription', 'subscription status', 'subscribe', 'opted in', 'opt in', 'optin', 'consent', 'status'];

function find(titles: string[], candidates: string[], taken: Set<number>, loose?: (title: string) => boolean): number | null {
  for (const candidate of candidates) {
    const index = titles.findIndex((title, at) => !taken.has(at) && title === candidate);
    if (index >= 0) return index;
  }
  if (!loose) return null;
  const index = titles.findIndex((title, at) => !taken.has(at) && loose(title));
  return index >= 0 ? index : null;
}

/**
 * The columns a header most likely means: "Email", "E-mail address", "Name", "Full name",
 * "Subscribed", "Status"…, any case and spacing; failing an exact title, one that mentions mail
 * (the address) or name. A column "unsubscribed" is never taken for "subscribed": it says the opposite.
 */
export function guessMapping(header: string[]): ColumnMapping {
  const titles = header.map(normalise);
  const taken = new Set<number>();
  const email = find(titles, EMAIL_TITLES, taken, (title) => title.includes('mail'));
  if (email !== null) taken.add(email);
  const name = find(titles, NAME_TITLES, taken, (title) => title.includes('name'));
  if (name !== null) taken.add(name);
  const subscribed = find(titles, SUBSCRIBED_TITLES, taken);
  return { email, name, subscribed };
}

/** Whether the first record is a header: not when one of its cells is an address already. */
export const looksLikeHeader = (first: string[]) => !first.some((cell) => /\S@\S/.test(cell));

const YES = new Set(['true', 'yes', 'y', '1', 'subscribed', 'opted in', 'opt in', 'optin', 'on', 'x']);
const NO = new Set(['false', 'no', 'n', '0', 'unsubscribed', 'opted out', 'opt out', 'optout', 'off']);

/**
 * A subscription cell: yes/no, true/false, 1/0, subscribed/unsubscribed… `undefined` when empty
 * (the server's default applies), `null` when it is none of these.
 */
export function parseSubscribed(value: string): boolean | undefined | null {
  const text = value.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
  if (text === '') return undefined;
  if (YES.has(text)) return true;
  if (NO.has(text)) return false;
  return null;
}

const columnsWord = (count: number) => (count === 1 ? '1 column' : `${count} columns`);

/**
 * The file's data records as contacts, by the mapping. A record is skipped, with the reason, when
 * its number of columns differs from the first row's, when its address cell is empty, or when its
 * subscription cell says neither yes nor no; the address itself is the server's to judge.
 */
export function mapRecords(records: CsvRecord[], columns: number, mapping: ColumnMapping): { rows: ImportRow[]; skipped: SkippedRow[] } {
  const rows: ImportRow[] = [];
  const skipped: SkippedRow[] = [];
  const cell = (fields: string[], index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
  for (const { fields, line } of records) {
    const email = cell(fields, mapping.email);
    if (fields.length !== columns) {
      skipped.push({ row: line, email, error: `has ${columnsWord(fields.length)} instead of ${columns}` });
      continue;
    }
    if (!email) {
      skipped.push({ row: line, email, error: 'no email address' });
      continue;
    }
    const contact: ContactFields = { email };
    const name = cell(fields, mapping.name);
    if (name) contact.name = name;
    if (mapping.subscribed !== null) {
      const raw = cell(fields, mapping.subscribed);
      const subscribed = parseSubscribed(raw);
      if (subscribed === null) {
        skipped.push({ row: line, email, error: `subscribed: "${raw}" is not yes or no (true/false, 1/0)` });
        continue;
      }
      if (subscribed !== undefined) contact.subscribed = subscribed;
    }
    rows.push({ row: line, contact });
  }
  return { rows, skipped };
}
