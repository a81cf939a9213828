import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, columnNames, perDatabase, prepareSql, recordsetOf, sqlNamed, tableName } from '@/db/raw-sql';
import { emailRecipients, emails, suppressions } from '@/db/schema';
import type { Deps } from '../../../deps';
import { newId } from '../../../ids';
import { unclaimedByInput } from '../../shared/claims/lease';
import { groupCommitter } from '../../shared/group-commit';
import { emailEventCtes, emailEventRecords, eventSubjectColumns, type EmailEventInput } from '../events';
import { aggregateEmailStatus } from '../aggregate-status';
import type { EmailStatus, RecipientStatus } from '../../../vocabulary/email-statuses';

type EmailRow = typeof emails.$inferSelect;

/** What a step did to one recipient: its row as the step leaves it. */
export interface RecipientChange {
  index: number;
  status: RecipientStatus;
  attempts: number;
  response: string | null;
  /** When a deferred recipient is tried again; null otherwise. */
  nextAttemptAt: Date | null;
}

/** What one dispatch step found, ready to store. */
export interface Outcome {
  email: EmailRow;
  /** The recipients this step changed; the others keep their rows. */
  recipients: RecipientChange[];
  nextAttemptAt: Date | null;
  extra: { sentAt?: Date; messageId?: string; messageDate?: Date };
  events: EmailEventInput[];
  /** Normalised addresses to put on the organization's suppression list (reason bounce). */
  suppress: string[];
  at: Date;
  /** The worker holding the email's claim: the write ends the claim if it still holds it. */
  worker: string;
}

/** What a report may have recorded while the step ran, which the step's own finding does not overwrite. */
const REPORTS_STAND = sql.raw(`'bounced', 'complained'`);

// Every finished email of a batch in one statement: its recipients' rows, its status derived from
// them, its events (emails/events.ts) and its suppressions, atomically (a data-modifying CTE is
// all or nothing), one round trip and one commit. The email rows are locked first, then their
// recipients' rows, the order a bounce report takes them in too: a row lock hands back the row as
// it stands now, not as the statement's snapshot saw it, so a report committed while the message
// was on its way is seen, stands (a recipient it bounced or complained keeps that), and counts in
// the email's status. An email deleted meanwhile (erased) is left out, with its events.
// Inputs go as one array literal per column (db/raw-sql.ts recordsetOf).
const CHANGED = ['emailId', 'recipientIndex', 'status', 'attempts', 'response', 'nextAttemptAt'] as const;
const SUPPRESSED = ['id', 'organizationId', 'email', 'reason', 'emailId', 'createdAt'] as const;
// Named, so Postgres plans it once per connection instead of on every call (planning this
// statement cost more than running it). A cached plan is made again whenever ANALYZE changes a
// table's statistics; the recipients are probed per locked email, by their primary key, so even a
// plan made while the table was small reads only the rows it locks.
// Two forms of it: a batch of transactional mail only (no broadcast copy: no broadcast's counts
// and no contact's engagement to move) skips those CTEs, which would find nothing to write.
const r = (key: (typeof CHANGED)[number]) => column(emailRecipients, key);
const writeStatement = (name: string, tally: boolean) => perDatabase((db: Db) =>
  prepareSql<{ id: string; status: EmailStatus; queued: number }>(
    db,
    name,
    sql`with input as (
        select * from ${recordsetOf('outcomes', 'o', emails, ['id', 'nextAttemptAt', 'attempts', 'sentAt', 'messageId', 'messageDate', 'updatedAt', 'claimedBy'])}
      ), locked as (
        select ${column(emails, 'id', 'e')} from ${tableName(emails, 'e')} where ${column(emails, 'id', 'e')} in (select id from input) for no key update
      ), held as (
        select c.* from locked l cross join lateral (
          select ${column(emailRecipients, 'emailId', 'r')}, ${column(emailRecipients, 'recipientIndex', 'r')}, ${column(emailRecipients, 'status', 'r')}
          from ${tableName(emailRecipients, 'r')} where ${column(emailRecipients, 'emailId', 'r')} = l.id for no key update
        ) c
      ), merged as (
        select c.${r('emailId')}, c.${r('recipientIndex')}, ch.${r('attempts')}, ch.${r('response')}, ch.${r('nextAttemptAt')},
          ch.${r('emailId')} is not null and c.${r('status')} not in (${REPORTS_STAND}) as changed,
          case when ch.${r('emailId')} is not null and c.${r('status')} not in (${REPORTS_STAND}) then ch.${r('status')} else c.${r('status')} end as ${r('status')}
        from held c left join ${recordsetOf('recipients', 'ch', emailRecipients, CHANGED)}
          on ch.${r('emailId')} = c.${r('emailId')} and ch.${r('recipientIndex')} = c.${r('recipientIndex')}
      ), recipients_written as (
        update ${tableName(emailRecipients, 'w')} set ${r('status')} = m.${r('status')}, ${r('attempts')} = m.${r('attempts')},
          ${r('response')} = m.${r('response')}, ${r('nextAttemptAt')} = m.${r('nextAttemptAt')}
        from merged m
        where m.changed and ${column(emailRecipients, 'emailId', 'w')} = m.${r('emailId')} and ${column(emailRecipients, 'recipientIndex', 'w')} = m.${r('recipientIndex')}
      ), derived as (
        select m.${r('emailId')}, ${aggregateEmailStatus(sql`m.${r('status')}`)} as status from merged m group by m.${r('emailId')}
      ), updated as (
        update ${tableName(emails, 'e')} set
          ${column(emails, 'status')} = coalesce(d.status, case when coalesce(o.${column(emails, 'sentAt')}, ${column(emails, 'sentAt', 'e')}) is null then 'sending' else 'sent' end),
          ${column(emails, 'nextAttemptAt')} = o.${column(emails, 'nextAttemptAt')},
          ${column(emails, 'attempts')} = o.${column(emails, 'attempts')},
          ${column(emails, 'updatedAt')} = o.${column(emails, 'updatedAt')},
          ${unclaimedByInput(emails, 'e', sql`o.${column(emails, 'claimedBy')}`)},
          ${column(emails, 'sentAt')} = coalesce(o.${column(emails, 'sentAt')}, ${column(emails, 'sentAt', 'e')}),
          ${column(emails, 'messageId')} = coalesce(o.${column(emails, 'messageId')}, ${column(emails, 'messageId', 'e')}),
          ${column(emails, 'messageDate')} = coalesce(o.${column(emails, 'messageDate')}, ${column(emails, 'messageDate', 'e')})
        from input o left join derived d on d.${r('emailId')} = o.${column(emails, 'id')}
        where ${column(emails, 'id', 'e')} = o.${column(emails, 'id')}
        returning ${eventSubjectColumns('e')}, ${column(emails, 'status', 'e')}
      ), ${emailEventCtes('updated', { tally })}, suppressed as (
        insert into ${tableName(suppressions)} (${columnNames(suppressions, SUPPRESSED)})
        select ${columnNames(suppressions, SUPPRESSED)} from ${recordsetOf('suppress', 's', suppressions, SUPPRESSED)}
        where ${column(suppressions, 'emailId', 's')} in (select id from updated)
        on conflict (${columnNames(suppressions, ['organizationId', 'email'])}) do nothing
      )
      select id, status, (select count(*)::int from queued) as queued from updated`,
  ),
);
const writeWithTally = writeStatement('record_outcomes', true);
const writeTransactional = writeStatement('record_outcomes_transactional', false);

/** Whether an outcome may move a broadcast's counts or a contact's engagement: a broadcast copy's. */
const isBroadcastCopy = (o: Outcome) => o.email.broadcastId !== null || o.email.contactId !== null;

/** Stores outcomes in one statement; answers the status each stored email has now (an email deleted meanwhile has none), and whether webhook deliveries were queued. */
async function writeOutcomes(db: Db, outcomes: Outcome[]): Promise<{ statuses: Map<string, EmailStatus>; queued: boolean }> {
  const input: unknown[] = [];
  const recipients: unknown[] = [];
  const events: unknown[] = [];
  const suppress: Array<{ sortKey: string; row: Record<string, unknown> }> = [];
  for (const o of outcomes) {
    const { email, at } = o;
    input.push(
      sqlNamed(emails, {
        id: email.id,
        nextAttemptAt: o.nextAttemptAt,
        attempts: email.attempts + 1,
        sentAt: o.extra.sentAt ?? null,
        messageId: o.extra.messageId ?? null,
        messageDate: o.extra.messageDate ?? null,
        updatedAt: at,
        claimedBy: o.worker,
      }),
    );
    for (const change of o.recipients) {
      recipients.push(sqlNamed(emailRecipients, { emailId: email.id, recipientIndex: change.index, status: change.status, attempts: change.attempts, response: change.response, nextAttemptAt: change.nextAttemptAt }));
    }
    events.push(...emailEventRecords(email.id, at, o.events));
    for (const address of o.suppress) {
      suppress.push({ sortKey: `${email.organizationId} ${address}`, row: sqlNamed(suppressions, { id: newId(), organizationId: email.organizationId, email: address, reason: 'bounce', emailId: email.id, createdAt: at }) });
    }
  }
  // One order for every writer, so two batches suppressing the same addresses cannot deadlock.
  suppress.sort((a, b) => (a.sortKey < b.sortKey ? -1 : 1));
  const write = outcomes.some(isBroadcastCopy) ? writeWithTally : writeTransactional;
  const rows = await write(db).execute({
    outcomes: input,
    recipients,
    events,
    suppress: suppress.map((entry) => entry.row),
  });
  return { statuses: new Map(rows.map((row) => [row.id, row.status])), queued: (rows[0]?.queued ?? 0) > 0 };
}

const writeInGroups = groupCommitter(async (db: Db, outcomes: Outcome[]) => {
  const { statuses, queued } = await writeOutcomes(db, outcomes);
  return outcomes.map((o) => ({ status: statuses.get(o.email.id) ?? null, queued }));
});

/**
 * Stores one outcome, with others finishing at the same time (group commit). Answers the email's
 * status as stored, derived from its recipients' rows; null when the email is gone.
 */
export async function recordOutcome(deps: Pick<Deps, 'db' | 'jobs' | 'metrics'>, outcome: Outcome): Promise<EmailStatus | null> {
  const { status, queued } = await writeInGroups(deps.db, outcome);
  if (queued) deps.jobs.wake('webhook-delivery', []);
  if (status && outcome.email.mode === 'live') deps.metrics.deliveryOutcome(status);
  return status;
}
