import { and, arrayContains, eq, or, sql, type SQL } from 'drizzle-orm';
import { consentEntries, contacts, emails, events, suppressions } from '@/db/schema';

/*
 * Where one address is held in an organization, as conditions shared by the listing
 * (recipient-data.ts) and the erasure (erase.ts), so the two can never disagree. `address` is
 * normalised (subject-address.ts).
 */

/** Emails to it (to, cc or bcc) or from it, in both modes. */
export const emailsOf = (organizationId: string, address: string): SQL =>
  and(eq(emails.organizationId, organizationId), or(arrayContains(emails.recipientAddresses, [address]), eq(emails.fromAddress, address)))!;

/** An address field of an event as written: the bare address, or `Name <address>`. */
const names = (field: SQL, address: string): SQL => sql`(lower(${field}) = ${address} or right(lower(${field}), ${address.length + 2}) = ${`<${address}>`})`;

/**
 * Event-log rows about it: the events of its emails (by id, while the emails exist), contact events (`email`), and the
 * copies of email events that outlive their email (the log keeps each event for its own retention)
 * by `recipient`, `from` or an entry of `to`. A scan of the organization's log: a data-subject
 * request is rare, and the log has no index by address (its writes are the hot path).
 */
export function eventsOf(organizationId: string, address: string): SQL {
  const data = events.data;
  return and(
    eq(events.organizationId, organizationId),
    or(
      sql`${data}->>'emailId' in (select ${emails.id}::text from ${emails} where ${emailsOf(organizationId, address)})`,
      sql`${data}->>'email' = ${address}`,
      names(sql`${data}->>'recipient'`, address),
      names(sql`${data}->>'from'`, address),
      sql`(jsonb_typeof(${data}->'to') = 'array' and exists (select 1 from jsonb_array_elements_text(${data}->'to') as t(v) where ${names(sql`t.v`, address)}))`,
    ),
  )!;
}

/** Its contact (one per address, in every audience it is in). */
export const contactsOf = (organizationId: string, address: string): SQL => and(eq(contacts.organizationId, organizationId), eq(contacts.email, address))!;

/** Suppression entries of it: by address, or the hashed entry of an erased address. */
export const suppressionsOf = (organizationId: string, address: string, hash: string): SQL =>
  and(eq(suppressions.organizationId, organizationId), or(eq(suppressions.email, address), eq(suppressions.emailHash, hash)))!;

/** Its consent-ledger entries: by address, or by hash once erased. */
export const consentEntriesOf = (organizationId: string, address: string, hash: string): SQL =>
  and(eq(consentEntries.organizationId, organizationId), or(eq(consentEntries.email, address), eq(consentEntries.emailHash, hash)))!;
