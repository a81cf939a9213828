import { getTableColumns, sql, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql } from '@/db/prepared';
import { emails } from '@/db/schema';
import { newId } from '../../../ids';
import type { EmailEventInput } from '../events';

type EmailInsert = typeof emails.$inferInsert;

/** An accepted email as it will be stored, with the events that record its acceptance. */
export interface EmailDraft {
  row: EmailInsert & { id: string; createdAt: Date };
  events: EmailEventInput[];
}

/** A row as Postgres' own record type spells it (column names, JSON values), for `json_populate_recordset`. */
function asRecord(table: PgTable, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  // A missing key reads as NULL: leaving nulls out keeps the JSON (and its parsing) smaller.
  for (const { key, name, fallback } of columnsOf(table)) {
    const value = row[key] ?? fallback;
    if (value !== null) record[name] = value;
  }
  return record;
}

const columnCache = new Map<PgTable, Array<{ key: string; name: string; fallback: unknown }>>();

/** Each column's property, SQL name and the value an unset property stores (its plain default, else null). */
function columnsOf(table: PgTable) {
  let columns = columnCache.get(table);
  if (!columns) {
    columns = (Object.entries(getTableColumns(table)) as Array<[string, Column]>).map(([key, column]) => ({
      key,
      name: column.name,
      fallback: column.hasDefault && !(column.default instanceof Object && 'queryChunks' in column.default) ? column.default : null,
    }));
    columnCache.set(table, columns);
  }
  return columns;
}

const columnList = (table: PgTable) => sql.raw(Object.values(getTableColumns(table) as Record<string, Column>).map((column) => `"${column.name}"`).join(', '));

// The emails, their history and their event-log rows in one statement: a data-modifying CTE is
// atomic by itself, so accepting costs one round trip and one commit, for one email or a hundred.
// An email that hits a unique index (its idempotency key) is skipped, and so are its events. What
// an event repeats of its email (organization, time, and for the log what a webhook receiver is
// told: id, mode, sender, recipients, subject, tags) is taken from the stored row, not sent again.
const storeOn = perDatabase((db: Db) =>
  prepareSql<{ id: string }>(
    db,
    'store_emails',
    sql`with stored as (
        insert into emails (${columnList(emails)})
        select ${columnList(emails)} from json_populate_recordset(null::emails, ${sql.placeholder('emails')}::text::json)
        on conflict do nothing
        returning id, organization_id, mode, "from", "to", subject, tags, created_at
      ), history as (
        insert into email_events (id, email_id, organization_id, type, recipient, data, created_at)
        select h.id, h.email_id, s.organization_id, h.type, h.recipient, h.data, s.created_at
        from json_to_recordset(${sql.placeholder('history')}::text::json) as h(id uuid, email_id uuid, type text, recipient text, data jsonb)
          join stored s on s.id = h.email_id
      ), logged as (
        insert into events (id, organization_id, type, data, created_at)
        select l.id, s.organization_id, l.type,
          jsonb_build_object('emailId', s.id, 'mode', s.mode, 'from', s."from", 'to', to_jsonb(s."to"), 'subject', s.subject, 'tags', s.tags) || l.data,
          s.created_at
        from json_to_recordset(${sql.placeholder('log')}::text::json) as l(id uuid, email_id uuid, type text, data jsonb)
          join stored s on s.id = l.email_id
      )
      select id from stored`,
  ),
);

/**
 * Stores accepted emails with their events, all stamped with the email's `createdAt`; returns the
 * ids that were stored (an email whose idempotency key is taken is not). `db` may be a
 * transaction, when attachments ride along.
 */
export async function storeEmails(db: Db, drafts: EmailDraft[]): Promise<Set<string>> {
  if (drafts.length === 0) return new Set();
  const history: unknown[] = [];
  const log: unknown[] = [];
  for (const { row, events: list } of drafts) {
    for (const event of list) {
      const recipient = event.recipient ?? undefined;
      history.push({ id: newId(), email_id: row.id, type: event.type, recipient, data: event.data ?? {} });
      log.push({ id: newId(), email_id: row.id, type: event.type, data: recipient ? { recipient, ...event.data } : (event.data ?? {}) });
    }
  }
  const stored = await storeOn(db).execute({
    emails: JSON.stringify(drafts.map((draft) => asRecord(emails, draft.row))),
    history: JSON.stringify(history),
    log: JSON.stringify(log),
  });
  return new Set(stored.map((row) => row.id));
}
