import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { columnNames, perDatabase, populateRecordset, prepareSql, rowRecord, tableName } from '@/db/raw-sql';
import { emails } from '@/db/schema';
import { emailEventCtes, emailEventRecords, eventSubjectColumns, type EmailEventInput } from '../events';
import { RESERVE_USAGE, reservationValues } from '../../plans/reservation-sql';
import type { Reservation } from '../../plans/sending-limits';
import { recipientRecords, STORE_RECIPIENTS, type DraftRecipient } from '../recipients';

type EmailInsert = typeof emails.$inferInsert;

/** An accepted email as it will be stored, with the events that record its acceptance. */
export interface EmailDraft {
  row: EmailInsert & { id: string; createdAt: Date };
  /** In envelope order: stored as the email's recipient rows. */
  recipients: DraftRecipient[];
  events: EmailEventInput[];
}

// The emails, their recipients (emails/recipients.ts) and their events (emails/events.ts: history,
// event log, webhook deliveries) in one statement: a data-modifying CTE is atomic by itself, so
// accepting costs one round trip and one commit, for one email or a hundred. An email that hits a
// unique index (its idempotency key) is skipped, and so are its recipients and events. What an
// event repeats of its email (organization, and for the log what a webhook receiver is told) is
// taken from the stored row, not sent again.
function storeStatement(withinLimits: boolean) {
  const limits = withinLimits ? sql`${RESERVE_USAGE}, ` : sql``;
  const gate = withinLimits ? sql`where exists (select 1 from reserved)` : sql``;
  const answer = withinLimits
    ? sql`select coalesce((select json_agg(id) from stored), '[]') as ids, (select count(*)::int from queued) as queued, (select month_recipients from reserved) as month_recipients`
    : sql`select id, (select count(*)::int from queued) as queued from stored`;
  // Acceptance moves no broadcast count: no tally.
  return sql`with ${limits}stored as (
        insert into ${tableName(emails)} (${columnNames(emails)})
        select ${columnNames(emails)} from ${populateRecordset(emails, 'emails')}
        ${gate}
        on conflict do nothing
        returning ${eventSubjectColumns()}
      ), ${STORE_RECIPIENTS}, ${emailEventCtes('stored', { tally: false })}
      ${answer}`;
}

const storeOn = perDatabase((db: Db) => prepareSql<{ id: string; queued: number }>(db, 'store_emails', storeStatement(false)));
// Live email moves the organization's sending counters in the same statement: accepted exactly when counted.
const storeWithinLimitsOn = perDatabase((db: Db) =>
  prepareSql<{ ids: string[] | string; queued: number; month_recipients: number | null }>(db, 'store_emails_within_limits', storeStatement(true)),
);

export interface StoreResult {
  stored: Set<string>;
  deliveriesQueued: boolean;
  /** With a reservation: whether the counters still had room (nothing is stored when not), and the month's count after it. */
  reserved: boolean;
  monthRecipients: number | null;
}

/**
 * Stores accepted emails with their events, all stamped with the email's `createdAt`; returns the
 * ids that were stored (an email whose idempotency key is taken is not), and whether webhook
 * deliveries were queued. `db` may be a transaction, when attachments ride along.
 */
export async function storeEmails(db: Db, drafts: EmailDraft[], reservation: Reservation | null = null): Promise<StoreResult> {
  if (drafts.length === 0) return { stored: new Set(), deliveriesQueued: false, reserved: true, monthRecipients: null };
  const values = {
    emails: drafts.map((draft) => rowRecord(emails, draft.row)),
    events: drafts.flatMap(({ row, events: list }) => emailEventRecords(row.id, row.createdAt, list)),
    recipients: recipientRecords(drafts),
  };
  if (!reservation) {
    const stored = await storeOn(db).execute(values);
    return { stored: new Set(stored.map((row) => row.id)), deliveriesQueued: (stored[0]?.queued ?? 0) > 0, reserved: true, monthRecipients: null };
  }
  const [row] = await storeWithinLimitsOn(db).execute({ ...values, ...reservationValues(reservation) });
  const ids = typeof row!.ids === 'string' ? (JSON.parse(row!.ids) as string[]) : row!.ids;
  return { stored: new Set(ids), deliveriesQueued: row!.queued > 0, reserved: row!.month_recipients !== null, monthRecipients: row!.month_recipients };
}
