import { contacts } from '@/db/schema';
import { AddressError, parseMailbox } from '../shared/addresses';

export type ContactRow = typeof contacts.$inferSelect;

export interface ContactView {
  id: string;
  email: string;
  name: string | null;
  subscribed: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A contact as a hand-written statement returns it (SQL column names, times as text). */
export interface ContactSqlRow {
  id: string;
  email: string;
  name: string | null;
  subscribed: boolean;
  created_at: string;
  updated_at: string;
}

export const contactView = (row: Pick<ContactRow, 'id' | 'email' | 'name' | 'subscribed' | 'createdAt' | 'updatedAt'>): ContactView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  subscribed: row.subscribed,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
});

/**
 * A contact's address as stored, with the parser sends use (IDN domains become ASCII): lowercase,
 * the address alone. Throws AddressError with a reason a person can act on.
 */
export function contactAddress(input: string): string {
  const mailbox = parseMailbox(input.trim());
  if (mailbox.name !== null) throw new AddressError(`"${input}": give the address alone and the name in "name"`);
  return mailbox.address.toLowerCase();
}
