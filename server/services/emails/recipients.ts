import { sql } from 'drizzle-orm';
import { column, columnNames, recordsetOf, sqlNamed, tableName, type InputRows } from '@/db/raw-sql';
import { emailRecipients, emails } from '@/db/schema';
import type { RecipientStatus } from '../../vocabulary/email-statuses';

/*
 * An email's recipients as rows (db/schema/email-recipients.ts): one per envelope recipient, in
 * envelope order, stored with the email in its one store statement.
 */

/** One recipient of an email as the pipeline reads and writes it: its row in email_recipients. */
export interface RecipientState {
  /** Position in the envelope order (to, cc, bcc): the recipient index of its VERP address. */
  index: number;
  address: string;
  status: RecipientStatus;
  attempts: number;
  response: string | null;
  /** Who receives it for us (its domain, for now): the destination the dispatcher gates on. */
  provider: string;
  /**
   * When a deferred recipient is due again (ISO, as the claim reads it); a step sets it for the
   * recipients it defers. Each recipient keeps its own back-off: one held a few seconds by traffic
   * shaping does not bring its deferred siblings back early.
   */
  nextAttemptAt?: string | null;
}

/** A recipient of an email being accepted, in envelope order. */
export interface DraftRecipient {
  address: string;
  status: Extract<RecipientStatus, 'pending' | 'suppressed' | 'failed'>;
  /** Why it failed before anything was sent (a broadcast copy that could not be rendered). */
  response?: string;
}

/** The destination an address is delivered to: the part after its last @, lowercase. */
export const recipientDomain = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

const STORED_KEYS = ['emailId', 'recipientIndex', 'address', 'status', 'response', 'provider'] as const;

/** The rows of these emails' recipients, as the store statement's `recipients` input reads them. */
export function recipientRecords(drafts: ReadonlyArray<{ row: { id: string }; recipients: readonly DraftRecipient[] }>): InputRows {
  const rows: Array<Record<string, unknown>> = [];
  for (const { row, recipients } of drafts) {
    recipients.forEach((recipient, index) => {
      rows.push(sqlNamed(emailRecipients, { emailId: row.id, recipientIndex: index, address: recipient.address, status: recipient.status, response: recipient.response ?? null, provider: recipientDomain(recipient.address) }));
    });
  }
  return rows;
}

/**
 * The CTE of the store statement that inserts the recipients of the emails it stored (`stored`,
 * returning their ids): one INSERT … SELECT from the `recipients` input, so an email skipped on its
 * idempotency key gets no rows, and accepting costs no round trip more.
 */
export const STORE_RECIPIENTS = sql`recipients as (
        insert into ${tableName(emailRecipients)} (${columnNames(emailRecipients, STORED_KEYS)})
        select ${sql.join(
          STORED_KEYS.map((key) => column(emailRecipients, key, 'r')),
          sql.raw(', '),
        )}
        from ${recordsetOf('recipients', 'r', emailRecipients, STORED_KEYS)}
          join stored s on ${column(emails, 'id', 's')} = ${column(emailRecipients, 'emailId', 'r')}
      )`;
