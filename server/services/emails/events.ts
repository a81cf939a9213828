import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, perDatabase, prepareSql, recordsetOf, sqlNamed, tableName } from '@/db/raw-sql';
import { emailEvents, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import type { EmailEventType } from '../../vocabulary/event-types';
import { eventLogCtes } from '../shared/events';
import { UNSTORED_HISTORY_TYPE } from './history';
import { tallyCte, type BroadcastCounts } from '../broadcasts/tally';
import { engagementCte } from '../contacts/engagement';

/*
 * The one writer of "something happened to an email": accepted, sent, delivered, bounced, opened,
 * unsubscribed… Each event goes to the email's history and to the organization's event log (with
 * the webhook deliveries it fans out to), and moves its broadcast's counts, in the statement of
 * whoever recorded it: the admit path's store, the delivery outcomes, and every one-email change
 * (recordEmailEvents). Webhooks and broadcasts sit below this file: nothing above it reaches them.
 */

export type EmailEventInput = {
  type: EmailEventType;
  recipient?: string | null;
  data?: Record<string, unknown>;
  /** The broadcast counts this event moves beyond what its type implies (a first open, an unsubscribe). */
  counts?: BroadcastCounts;
};

/** What a relation of the emails being written must return for {@link emailEventCtes} to read. */
const SUBJECT = ['id', 'organizationId', 'mode', 'from', 'to', 'subject', 'tags', 'broadcastId', 'contactId'] as const;

/** `"e"."id", "e"."organization_id", …`: the columns of an email the writer reads, for a RETURNING or a SELECT. */
export function eventSubjectColumns(alias?: string): SQL {
  return sql.join(
    SUBJECT.map((key) => column(emails, key, alias)),
    sql.raw(', '),
  );
}

const INPUT = 'email_event_input';
const HISTORY = ['id', 'emailId', 'organizationId', 'type', 'recipient', 'data', 'createdAt'] as const;

/**
 * The one payload of an email event in the log, as a webhook receiver gets it: what it needs about
 * the email without calling back, the recipient it concerns, and the event's own data last.
 */
function payload(e: string, ev: string): SQL {
  const of = (key: (typeof SUBJECT)[number]) => column(emails, key, e);
  return sql`jsonb_build_object('emailId', ${of('id')}, 'mode', ${of('mode')}, 'from', ${of('from')}, 'to', to_jsonb(${of('to')}), 'subject', ${of('subject')}, 'tags', ${of('tags')})
    || case when ${sql.identifier(ev)}.recipient is null then '{}'::jsonb else jsonb_build_object('recipient', ${sql.identifier(ev)}.recipient) end
    || coalesce(${sql.identifier(ev)}.data, '{}'::jsonb)`;
}

/**
 * CTEs (for a `with …`) recording the events of placeholder `events` ({@link emailEventRecords})
 * for the emails the relation `written` returns ({@link eventSubjectColumns}): an event of an
 * email that is not there (not stored, not updated) is left out with it. `tally: false` for a
 * statement whose events never move a broadcast's counts nor a contact's engagement (acceptance; outcomes of transactional mail only). The statement's answer
 * reads `(select count(*) from queued)`: webhook deliveries to wake.
 */
export function emailEventCtes(written: string, options: { tally: boolean }): SQL {
  const w = sql.identifier(written);
  const events = sql`${sql.identifier(INPUT)} ev join ${w} e on ${column(emails, 'id', 'e')} = ev.email_id`;
  return sql`${sql.identifier(INPUT)} as (
      select * from ${recordsetOf('events', 'x', emailEvents, ['id', 'emailId', 'type', 'recipient', 'data', 'createdAt'], [
        ['log_id', 'uuid'],
        ['counts', 'jsonb'],
      ])}
    ), history as (
      insert into ${tableName(emailEvents)} (${columnNames(emailEvents, HISTORY)})
      select ev.id, ${column(emails, 'id', 'e')}, ${column(emails, 'organizationId', 'e')}, ev.type, ev.recipient, coalesce(ev.data, '{}'::jsonb), ev.created_at
      from ${events} where ev.type <> ${sql.raw(`'${UNSTORED_HISTORY_TYPE}'`)}
    ), ${options.tally ? sql`${tallyCte(INPUT, written)}, ${engagementCte(INPUT, written)}, ` : sql``}${eventLogCtes(sql`select ev.log_id, ${column(emails, 'organizationId', 'e')}, ev.type, ${payload('e', 'ev')}, ev.created_at from ${events}`)}`;
}

/** The `events` placeholder's rows for one email's events at one moment. */
export function emailEventRecords(emailId: string, at: Date, list: EmailEventInput[]): Array<Record<string, unknown>> {
  return list.map((event) => {
    // The acceptance entry is not stored in the history (emails/history.ts): it needs no id there.
    const id = event.type === UNSTORED_HISTORY_TYPE ? null : newId();
    // The extra fields before the spread: properties after one cost V8 microseconds per object.
    return {
      log_id: newId(),
      counts: event.counts ?? null,
      ...sqlNamed(emailEvents, { id, emailId, type: event.type, recipient: event.recipient ?? null, data: event.data ?? {}, createdAt: at }),
    };
  });
}

// Unnamed: the join to the organization's endpoints is planned for each run.
const recordOn = perDatabase((db: Db) =>
  prepareSql<{ queued: number }>(
    db,
    null,
    sql`with subject as (
        select ${eventSubjectColumns()} from ${tableName(emails)} where ${column(emails, 'id')} = ${sql.placeholder('email')}::uuid
      ), ${emailEventCtes('subject', { tally: true })}
      select count(*)::int as queued from queued`,
  ),
);

/**
 * Records events of one email in the caller's transaction, as the email stands in it: history,
 * event log, webhook deliveries and broadcast counts in one statement, so they never disagree.
 */
export async function recordEmailEvents(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, email: { id: string }, list: EmailEventInput[]): Promise<void> {
  if (list.length === 0) return;
  const [result] = await recordOn(tx).execute({ email: email.id, events: emailEventRecords(email.id, deps.clock.now(), list) });
  if ((result?.queued ?? 0) > 0) deps.jobs.wake('webhook-delivery', []);
}
