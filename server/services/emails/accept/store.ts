import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, jsonRecordset, perDatabase, populateRecordset, prepareSql, rowRecord, sqlNamed, tableName } from '@/db/raw-sql';
import { emailEvents, emails, events } from '@/db/schema';
import { newId } from '../../../ids';
import { LOGGED_RETURNING, queueDeliveries } from '../../webhooks/fan-out';
import type { EmailEventInput } from '../events';
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

// The emails, their recipients, their history and their event-log rows in one statement: a data-modifying CTE is
// atomic by itself, so accepting costs one round trip and one commit, for one email or a hundred.
// An email that hits a unique index (its idempotency key) is skipped, and so are its events. What
// an event repeats of its email (organization, time, and for the log what a webhook receiver is
// told: id, mode, sender, recipients, subject, tags) is taken from the stored row, not sent again.
const STORED = ['id', 'organizationId', 'mode', 'from', 'to', 'subject', 'tags', 'createdAt'] as const;
const HISTORY = ['id', 'emailId', 'organizationId', 'type', 'recipient', 'data', 'createdAt'] as const;
const LOGGED = ['id', 'organizationId', 'type', 'data', 'createdAt'] as const;
function storeStatement(withinLimits: boolean) {
  const limits = withinLimits ? sql`${RESERVE_USAGE}, ` : sql``;
  const gate = withinLimits ? sql`where exists (select 1 from reserved)` : sql``;
  const answer = withinLimits
    ? sql`select coalesce((select json_agg(id) from stored), '[]') as ids, (select count(*)::int from queued) as queued, (select month_recipients from reserved) as month_recipients`
    : sql`select id, (select count(*)::int from queued) as queued from stored`;
  return sql`with ${limits}stored as (
        insert into ${tableName(emails)} (${columnNames(emails)})
        select ${columnNames(emails)} from ${populateRecordset(emails, 'emails')}
        ${gate}
        on conflict do nothing
        returning ${columnNames(emails, STORED)}
      ), ${STORE_RECIPIENTS}, history as (
        insert into ${tableName(emailEvents)} (${columnNames(emailEvents, HISTORY)})
        select ${sql.join([column(emailEvents, 'id', 'h'), column(emailEvents, 'emailId', 'h'), column(emails, 'organizationId', 's'), column(emailEvents, 'type', 'h'), column(emailEvents, 'recipient', 'h'), column(emailEvents, 'data', 'h'), column(emails, 'createdAt', 's')], sql.raw(', '))}
        from ${jsonRecordset('history', 'h', emailEvents, ['id', 'emailId', 'type', 'recipient', 'data'])}
          join stored s on ${column(emails, 'id', 's')} = ${column(emailEvents, 'emailId', 'h')}
      ), logged as (
        insert into ${tableName(events)} (${columnNames(events, LOGGED)})
        select ${column(events, 'id', 'l')}, ${column(emails, 'organizationId', 's')}, ${column(events, 'type', 'l')},
          jsonb_build_object('emailId', ${column(emails, 'id', 's')}, 'mode', ${column(emails, 'mode', 's')}, 'from', ${column(emails, 'from', 's')},
            'to', to_jsonb(${column(emails, 'to', 's')}), 'subject', ${column(emails, 'subject', 's')}, 'tags', ${column(emails, 'tags', 's')}) || ${column(events, 'data', 'l')},
          ${column(emails, 'createdAt', 's')}
        from ${jsonRecordset('log', 'l', events, ['id', 'type', 'data'], [['email_id', 'uuid']])}
          join stored s on ${column(emails, 'id', 's')} = l.email_id
        ${LOGGED_RETURNING}
      ), queued as (${queueDeliveries('logged')})
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
  const history: unknown[] = [];
  const log: unknown[] = [];
  for (const { row, events: list } of drafts) {
    for (const event of list) {
      const recipient = event.recipient ?? undefined;
      history.push(sqlNamed(emailEvents, { id: newId(), emailId: row.id, type: event.type, recipient, data: event.data ?? {} }));
      log.push({ ...sqlNamed(events, { id: newId(), type: event.type, data: recipient ? { recipient, ...event.data } : (event.data ?? {}) }), email_id: row.id });
    }
  }
  const values = {
    emails: JSON.stringify(drafts.map((draft) => rowRecord(emails, draft.row))),
    history: JSON.stringify(history),
    log: JSON.stringify(log),
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
