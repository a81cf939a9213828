import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, jsonRecordset, perDatabase, prepareSql, sqlNamed, tableName } from '@/db/raw-sql';
import { emails, suppressions } from '@/db/schema';
import type { Deps } from '../../../deps';
import { newId } from '../../../ids';
import { unclaimedByInput } from '../../shared/claims/lease';
import { groupCommitter } from '../../shared/group-commit';
import { emailEventCtes, emailEventRecords, eventSubjectColumns, type EmailEventInput } from '../events';
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
  /** The worker holding the email's claim: the write ends the claim if it still holds it. */
  worker: string;
}

// Every finished email of a batch in one statement: its row, its events (emails/events.ts) and
// its suppressions, atomically (a data-modifying CTE is all or nothing), one round trip and one
// commit. An email whose recipient states changed since the claim (a bounce or complaint report
// came in) is left out, with its events: the caller merges and writes it under a row lock.
// Inputs go as json, which Postgres reads more cheaply than jsonb.
const SUPPRESSED = ['id', 'organizationId', 'email', 'reason', 'emailId', 'createdAt'] as const;
// Unnamed (planned on each run): named, it kept the generic plan it chose while emails was small
// and unanalyzed, a sequential scan, as the table grew.
const writeOn = perDatabase((db: Db) =>
  prepareSql<{ id: string; queued: number }>(
    db,
    null,
    sql`with input as (
        select * from ${jsonRecordset('outcomes', 'o', emails, ['id', 'status', 'nextAttemptAt', 'attempts', 'sentAt', 'messageId', 'messageDate', 'updatedAt', 'claimedBy'], [
          ['expected', 'jsonb'],
          ['states', 'jsonb'],
        ])}
      ), updated as (
        update ${tableName(emails, 'e')} set ${column(emails, 'status')} = o.${column(emails, 'status')},
          ${column(emails, 'recipientStates')} = o.states,
          ${column(emails, 'nextAttemptAt')} = o.${column(emails, 'nextAttemptAt')},
          ${column(emails, 'attempts')} = o.${column(emails, 'attempts')},
          ${column(emails, 'updatedAt')} = o.${column(emails, 'updatedAt')},
          ${unclaimedByInput(emails, 'e', sql`o.${column(emails, 'claimedBy')}`)},
          ${column(emails, 'sentAt')} = coalesce(o.${column(emails, 'sentAt')}, ${column(emails, 'sentAt', 'e')}),
          ${column(emails, 'messageId')} = coalesce(o.${column(emails, 'messageId')}, ${column(emails, 'messageId', 'e')}),
          ${column(emails, 'messageDate')} = coalesce(o.${column(emails, 'messageDate')}, ${column(emails, 'messageDate', 'e')})
        from input o
        where ${column(emails, 'id', 'e')} = o.${column(emails, 'id')} and ${column(emails, 'recipientStates', 'e')} = o.expected
        returning ${eventSubjectColumns('e')}
      ), ${emailEventCtes('updated', { tally: true })}, suppressed as (
        insert into ${tableName(suppressions)} (${columnNames(suppressions, SUPPRESSED)})
        select ${columnNames(suppressions, SUPPRESSED)} from ${jsonRecordset('suppress', 's', suppressions, SUPPRESSED)}
        where ${column(suppressions, 'emailId', 's')} in (select id from updated)
        on conflict (${columnNames(suppressions, ['organizationId', 'email'])}) do nothing
      )
      select id, (select count(*)::int from queued) as queued from updated`,
  ),
);

/** Stores outcomes in one statement; answers the ids it stored, and whether webhook deliveries were queued. */
async function writeOutcomes(db: Db, outcomes: Outcome[]): Promise<{ written: Set<string>; queued: boolean }> {
  const input: unknown[] = [];
  const events: unknown[] = [];
  const suppress: Array<{ sortKey: string; row: Record<string, unknown> }> = [];
  for (const o of outcomes) {
    const { email, at } = o;
    input.push({
      ...sqlNamed(emails, {
        id: email.id,
        status: o.status,
        nextAttemptAt: o.nextAttemptAt,
        attempts: email.attempts + 1,
        sentAt: o.extra.sentAt ?? null,
        messageId: o.extra.messageId ?? null,
        messageDate: o.extra.messageDate ?? null,
        updatedAt: at,
        claimedBy: o.worker,
      }),
      expected: email.recipientStates,
      states: o.states,
    });
    events.push(...emailEventRecords(email.id, at, o.events));
    for (const address of o.suppress) {
      suppress.push({ sortKey: `${email.organizationId} ${address}`, row: sqlNamed(suppressions, { id: newId(), organizationId: email.organizationId, email: address, reason: 'bounce', emailId: email.id, createdAt: at }) });
    }
  }
  // One order for every writer, so two batches suppressing the same addresses cannot deadlock.
  suppress.sort((a, b) => (a.sortKey < b.sortKey ? -1 : 1));
  const rows = await writeOn(db).execute({
    outcomes: JSON.stringify(input),
    events: JSON.stringify(events),
    suppress: JSON.stringify(suppress.map((entry) => entry.row)),
  });
  return { written: new Set(rows.map((row) => row.id)), queued: (rows[0]?.queued ?? 0) > 0 };
}

const writeInGroups = groupCommitter(async (db: Db, outcomes: Outcome[]) => {
  const { written, queued } = await writeOutcomes(db, outcomes);
  return outcomes.map((o) => ({ written: written.has(o.email.id), queued }));
});

/**
 * Stores one outcome, with others finishing at the same time (group commit). False: the recipient
 * states changed since the claim.
 */
export async function recordOutcome(deps: Pick<Deps, 'db' | 'jobs' | 'metrics'>, outcome: Outcome): Promise<boolean> {
  const { written, queued } = await writeInGroups(deps.db, outcome);
  if (queued) deps.jobs.wake('webhook-delivery', []);
  if (written && outcome.email.mode === 'live') deps.metrics.deliveryOutcome(outcome.status);
  return written;
}
