import { and, asc, eq, getTableColumns, getTableName, inArray, isNotNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, tableName } from '@/db/raw-sql';
import { dkimKeys, emailAttachments, emailRecipients, emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { claimable, claimedBy, placeholderClaimant } from '../../shared/claims/lease';
import type { RecipientState } from '../recipients';
import type { ClaimedEmail } from './types';

/*
 * How an email is claimed for its next step: through the one claim-and-lease mechanism
 * (services/shared/claims), by one atomic update, so an email is handled once even when the
 * runner, an Inngest function and another process reach it together, and so a cancel or
 * reschedule either wins before the claim (nothing is sent) or finds the email no longer
 * scheduled (409). Due-ness is business time (the injectable clock); the lease is database time.
 */

/** An email whose next step is due at `now` (a timestamptz): what the sweep claims, and /metrics counts as due work. */
export const emailIsDue = (now: SQL) => and(isNotNull(emails.nextAttemptAt), lte(emails.nextAttemptAt, now), ne(emails.status, 'canceled'))!;
const dueNow = emailIsDue(sql`${sql.placeholder('now')}::timestamptz`);

/**
 * Not to a destination this process already has its fill of: no recipient still to deliver whose
 * provider is in `busy`. An email to one domain compares its stored destination (a scan past a
 * large backlog to one busy domain then reads no other row); one to several looks its open
 * recipients up by their email (the recipients' primary key).
 */
const notBusy = (busy: unknown) => sql`(cardinality(${busy}::text[]) = 0 or case when ${emails.destination} is not null then ${emails.destination} <> all(${busy}::text[]) else not exists (
  select 1 from ${tableName(emailRecipients, 'r')} where ${column(emailRecipients, 'emailId', 'r')} = ${emails.id}
    and ${column(emailRecipients, 'status', 'r')} in ('pending', 'deferred') and ${column(emailRecipients, 'provider', 'r')} = any(${busy}::text[])) end)`;

// The claim also reads what sending needs besides the row: its recipients, the domain's active
// DKIM key (so a rotated or deleted key is seen at once) and whether there are attachments to load.
// Qualified by hand: drizzle writes the columns of an UPDATE's RETURNING unqualified, which inside
// these sub-selects would name the sub-select's own table.
const outer = (key: 'id' | 'domainId') => column(emails, key, getTableName(emails));
const RECIPIENT_FIELDS = {
  index: 'recipientIndex',
  address: 'address',
  status: 'status',
  attempts: 'attempts',
  response: 'response',
  provider: 'provider',
  nextAttemptAt: 'nextAttemptAt',
} as const satisfies Record<
  keyof RecipientState,
  keyof typeof emailRecipients.$inferSelect
>;
const recipientFields = sql.join(
  Object.entries(RECIPIENT_FIELDS).map(([field, key]) => sql`${sql.raw(`'${field}'`)}, ${column(emailRecipients, key, 'r')}`),
  sql.raw(', '),
);
// postgres-js parses json results itself; a driver that hands the text over gets it parsed here.
const parsedJson = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));
const returned = {
  ...getTableColumns(emails),
  signingKeyId: sql<string | null>`(select ${column(dkimKeys, 'id', 'k')} from ${tableName(dkimKeys, 'k')}
    where ${column(dkimKeys, 'domainId', 'k')} = ${outer('domainId')} and ${column(dkimKeys, 'retiredAt', 'k')} is null
      and ${column(dkimKeys, 'privateKeyEncrypted', 'k')} is not null order by ${column(dkimKeys, 'id', 'k')} desc limit 1)`,
  hasAttachments: sql<boolean>`exists (select 1 from ${tableName(emailAttachments, 'a')} where ${column(emailAttachments, 'emailId', 'a')} = ${outer('id')})`,
  recipients: sql<RecipientState[]>`(select coalesce(json_agg(json_build_object(${recipientFields}) order by ${column(emailRecipients, 'recipientIndex', 'r')}), '[]')
    from ${tableName(emailRecipients, 'r')} where ${column(emailRecipients, 'emailId', 'r')} = ${outer('id')})`.mapWith(parsedJson<RecipientState[]>),
};

const claimSet = (db: Db) =>
  db.update(emails).set({
    ...claimedBy(placeholderClaimant),
    status: sql`case when ${emails.status} in ('queued', 'scheduled') then 'sending' else ${emails.status} end`,
    updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
  });

const claimOneStatement = perDatabase((db) =>
  claimSet(db)
    .where(and(eq(emails.id, sql.placeholder('id')), dueNow, claimable(emails, placeholderClaimant)))
    .returning(returned)
    .prepare('claim_email'),
);

// Oldest due first; SKIP LOCKED lets sweeps in several workers take disjoint batches instead of
// queueing behind each other's locks. Executed unprepared, so Postgres plans it for each run: a
// named statement kept the generic plan it chose while the table was small and unanalyzed (a
// sequential scan of emails) long after the table had grown.
const claimDueStatement = perDatabase((db) =>
  claimSet(db)
    .where(
      inArray(
        emails.id,
        db
          .select({ id: emails.id })
          .from(emails)
          .where(and(dueNow, claimable(emails, placeholderClaimant), notBusy(sql.placeholder('busy'))))
          .orderBy(asc(emails.nextAttemptAt))
          .limit(sql.placeholder('limit'))
          .for('update', { skipLocked: true }),
      ),
    )
    .returning(returned),
);

/** Claims this email if it is due and nobody holds it. */
export async function claimEmail(deps: Deps, id: string): Promise<ClaimedEmail | undefined> {
  const [row] = await claimOneStatement(deps.db).execute({ id, now: deps.clock.now().toISOString(), ...deps.claims.claimant });
  if (row) deps.claims.hold(emails, [row.id]);
  return row;
}

/** Claims up to `limit` due emails, oldest due first, none to a destination in `busy`. */
export async function claimDueEmails(deps: Deps, limit: number, busy: string[]): Promise<ClaimedEmail[]> {
  const rows = await claimDueStatement(deps.db).execute({ limit, busy, now: deps.clock.now().toISOString(), ...deps.claims.claimant });
  deps.claims.hold(
    emails,
    rows.map((row) => row.id),
  );
  return rows;
}

/**
 * Gives a claimed email back without a step taken. `retryAt` moves its due time (a step that
 * failed for a reason of ours is not tried again at once); otherwise it is due again now.
 */
export async function releaseEmail(deps: Deps, id: string, retryAt?: Date): Promise<void> {
  if (!retryAt) return deps.claims.release(emails, [id]);
  deps.claims.finished(emails, [id]);
  await deps.db
    .update(emails)
    .set({ nextAttemptAt: retryAt, claimedBy: null, claimedUntil: null })
    .where(and(eq(emails.id, id), eq(emails.claimedBy, deps.claims.id)));
}
