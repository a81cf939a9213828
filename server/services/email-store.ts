import { getTableColumns, sql, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql } from '@/db/prepared';
import { emailEvents, emails, events } from '@/db/schema';
import { emailEventRows, type EmailEventInput, type EmailEventSubject } from './email-events';

export type EmailInsert = typeof emails.$inferInsert;

/** An accepted email as it will be stored, with the events that record its acceptance. */
export interface EmailDraft {
  row: EmailInsert;
  subject: EmailEventSubject;
  events: EmailEventInput[];
}

/** A row as Postgres' own record type spells it (column names, JSON values), for `json_populate_recordset`. */
function asRecord(table: PgTable, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { key, name, fallback } of columnsOf(table)) {
    const value = row[key];
    record[name] = value !== undefined ? value : fallback;
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
// An email that hits a unique index (its idempotency key) is skipped, and so are its events.
const storeOn = perDatabase((db: Db) =>
  prepareSql<{ id: string }>(
    db,
    'store_emails',
    sql`with stored as (
        insert into emails (${columnList(emails)})
        select ${columnList(emails)} from json_populate_recordset(null::emails, ${sql.placeholder('emails')}::text::json)
        on conflict do nothing
        returning id
      ), history as (
        insert into email_events (${columnList(emailEvents)})
        select ${columnList(emailEvents)} from json_populate_recordset(null::email_events, ${sql.placeholder('history')}::text::json)
        where email_id in (select id from stored)
      ), logged as (
        insert into events (${columnList(events)})
        select ${columnList(events)} from json_array_elements(${sql.placeholder('log')}::text::json) entry
          cross join lateral json_populate_record(null::events, entry) r
        where (entry ->> 'email_id')::uuid in (select id from stored)
      )
      select id from stored`,
  ),
);

/**
 * Stores accepted emails with their events; returns the ids that were stored (an email whose
 * idempotency key is taken is not). `db` may be a transaction, when attachments ride along.
 */
export async function storeEmails(db: Db, at: Date, drafts: EmailDraft[]): Promise<Set<string>> {
  if (drafts.length === 0) return new Set();
  const history: Record<string, unknown>[] = [];
  const log: Record<string, unknown>[] = [];
  for (const draft of drafts) {
    const rows = emailEventRows(at, draft.subject, draft.events);
    for (const row of rows.history) history.push(asRecord(emailEvents, row));
    for (const row of rows.log) log.push({ ...asRecord(events, row), email_id: draft.subject.id });
  }
  const stored = await storeOn(db).execute({
    emails: JSON.stringify(drafts.map((draft) => asRecord(emails, draft.row))),
    history: JSON.stringify(history),
    log: JSON.stringify(log),
  });
  return new Set(stored.map((row) => row.id));
}
