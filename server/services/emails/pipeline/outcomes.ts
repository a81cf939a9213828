import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql } from '@/db/raw-sql';
import type { emails } from '@/db/schema';
import { newId } from '../../../ids';
import { emailEventRows, type EmailEventInput } from '../events';
import type { RecipientState } from '../aggregate-status';

type EmailRow = typeof emails.$inferSelect;

/** What one dispatch step found, ready to store. */
export interface Outcome {
  /** The email as claimed: its recipient states are what the row must still hold for this write to apply. */
  email: EmailRow;
  states: RecipientState[];
  status: string;
  nextAttemptAt: Date | null;
  extra: { sentAt?: Date; messageId?: string; messageDate?: Date };
  events: EmailEventInput[];
  /** Normalised addresses to put on the organization's suppression list (reason bounce). */
  suppress: string[];
  at: Date;
}

// Every finished email of a batch in one statement: its row, its history, its event-log rows and
// its suppressions, atomically (a data-modifying CTE is all or nothing), one round trip and one
// commit. An email whose recipient states changed since the claim (a bounce or complaint report
// came in) is left out, with its events: the caller merges and writes it under a row lock.
// Inputs go as json, which Postgres reads more cheaply than jsonb.
const writeOn = perDatabase((db: Db) =>
  prepareSql<{ id: string }>(
    db,
    'write_dispatch_outcomes',
    sql`with input as (
        select * from json_to_recordset(${sql.placeholder('outcomes')}::json) as o(id uuid, expected jsonb, status text, states jsonb,
          next_attempt_at timestamptz, attempts int, sent_at timestamptz, message_id text, message_date timestamptz, updated_at timestamptz)
      ), updated as (
        update emails e set status = o.status, recipient_states = o.states, next_attempt_at = o.next_attempt_at, attempts = o.attempts,
          updated_at = o.updated_at, sent_at = coalesce(o.sent_at, e.sent_at), message_id = coalesce(o.message_id, e.message_id),
          message_date = coalesce(o.message_date, e.message_date)
        from input o
        where e.id = o.id and e.recipient_states = o.expected
        returning e.id
      ), history as (
        insert into email_events (id, email_id, organization_id, type, recipient, data, created_at)
        select h.id, h.email_id, h.organization_id, h.type, h.recipient, h.data, h.created_at
        from json_to_recordset(${sql.placeholder('history')}::json)
          as h(id uuid, email_id uuid, organization_id uuid, type text, recipient text, data jsonb, created_at timestamptz)
        where h.email_id in (select id from updated)
      ), logged as (
        insert into events (id, organization_id, type, data, created_at)
        select l.id, l.organization_id, l.type, l.data, l.created_at
        from json_to_recordset(${sql.placeholder('log')}::json) as l(id uuid, email_id uuid, organization_id uuid, type text, data jsonb, created_at timestamptz)
        where l.email_id in (select id from updated)
      ), suppressed as (
        insert into suppressions (id, organization_id, email, reason, email_id, created_at)
        select s.id, s.organization_id, s.email, 'bounce', s.email_id, s.created_at
        from json_to_recordset(${sql.placeholder('suppress')}::json) as s(id uuid, organization_id uuid, email text, email_id uuid, created_at timestamptz)
        where s.email_id in (select id from updated)
        on conflict (organization_id, email) do nothing
      )
      select id from updated`,
  ),
);

/** Stores outcomes in one statement; answers the ids it stored. */
async function writeOutcomes(db: Db, outcomes: Outcome[]): Promise<Set<string>> {
  const input: unknown[] = [];
  const history: unknown[] = [];
  const log: unknown[] = [];
  const suppress: Array<{ id: string; organization_id: string; email: string; email_id: string; created_at: Date }> = [];
  for (const o of outcomes) {
    const { email, at } = o;
    input.push({
      id: email.id,
      expected: email.recipientStates,
      status: o.status,
      states: o.states,
      next_attempt_at: o.nextAttemptAt,
      attempts: email.attempts + 1,
      sent_at: o.extra.sentAt ?? null,
      message_id: o.extra.messageId ?? null,
      message_date: o.extra.messageDate ?? null,
      updated_at: at,
    });
    const rows = emailEventRows(at, email, o.events);
    for (const h of rows.history) history.push({ id: h.id, email_id: h.emailId, organization_id: h.organizationId, type: h.type, recipient: h.recipient, data: h.data, created_at: h.createdAt });
    for (const l of rows.log) log.push({ id: l.id, email_id: email.id, organization_id: l.organizationId, type: l.type, data: l.data, created_at: l.createdAt });
    for (const address of o.suppress) suppress.push({ id: newId(), organization_id: email.organizationId, email: address, email_id: email.id, created_at: at });
  }
  // One order for every writer, so two batches suppressing the same addresses cannot deadlock.
  suppress.sort((a, b) => (a.organization_id + a.email < b.organization_id + b.email ? -1 : 1));
  const rows = await writeOn(db).execute({ outcomes: JSON.stringify(input), history: JSON.stringify(history), log: JSON.stringify(log), suppress: JSON.stringify(suppress) });
  return new Set(rows.map((row) => row.id));
}

interface Waiting {
  outcome: Outcome;
  settle: (written: boolean) => void;
  fail: (error: unknown) => void;
}

const MAX_BATCH = 64;
const queues = new WeakMap<Db, { waiting: Waiting[]; flushing: boolean }>();

async function flush(db: Db, queue: { waiting: Waiting[]; flushing: boolean }): Promise<void> {
  queue.flushing = true;
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, MAX_BATCH);
      try {
        const written = await writeOutcomes(db, batch.map((w) => w.outcome));
        for (const w of batch) w.settle(written.has(w.outcome.email.id));
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.fail(error);
          continue;
        }
        // One bad outcome must not fail the others, which were already sent.
        for (const w of batch) await writeOutcomes(db, [w.outcome]).then((written) => w.settle(written.has(w.outcome.email.id)), w.fail);
      }
    }
  } finally {
    queue.flushing = false;
  }
}

/**
 * Stores one outcome. Outcomes finishing while a write is under way go together in the next one
 * (group commit), so a sweep with many emails in flight pays one round trip and one commit per
 * batch, and a lone email one for itself. False: the recipient states changed since the claim.
 */
export function recordOutcome(db: Db, outcome: Outcome): Promise<boolean> {
  let queue = queues.get(db);
  if (!queue) {
    queue = { waiting: [], flushing: false };
    queues.set(db, queue);
  }
  const done = new Promise<boolean>((settle, fail) => queue.waiting.push({ outcome, settle, fail }));
  if (!queue.flushing) void flush(db, queue);
  return done;
}
