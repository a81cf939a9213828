import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { columnNames, perDatabase, populateRecordset, prepareSql, tableName } from '@/db/raw-sql';
import { emails } from '@/db/schema';
import { emailEventCtes, emailEventRecords, eventSubjectColumns, type EmailEventInput } from '../events';
import { RESERVE_USAGE, reservationRecords } from '../../plans/reservation-sql';
import type { Reservation } from '../../plans/sending-limits';
import { recipientRecords, STORE_RECIPIENTS, type DraftRecipient } from '../recipients';
import { flatMapped } from '../../shared/flat-mapped';

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
// taken from the stored row, not sent again. Only rows that carry a unique key of their own (an
// idempotency key, a broadcast's contact) can hit one: a statement with none inserts them plainly,
// without `on conflict`'s speculative insertion (a probe of the primary key, and a WAL record to
// confirm each row).
function storeStatement(withinLimits: boolean, keyed: boolean) {
  const limits = withinLimits ? sql`${RESERVE_USAGE}, ` : sql``;
  const gate = withinLimits ? sql`where organization_id in (select organization_id from reserved)` : sql``;
  const answer = withinLimits
    ? sql`select id, organization_id, null::int as month_recipients, (select count(*)::int from queued) as queued from stored
        union all select null, organization_id, month_recipients, null from reserved`
    : sql`select id, (select count(*)::int from queued) as queued from stored`;
  // Acceptance moves no broadcast count: no tally.
  return sql`with ${limits}stored as (
        insert into ${tableName(emails)} (${columnNames(emails)})
        select ${columnNames(emails)} from ${populateRecordset(emails, 'emails')}
        ${gate}
        ${keyed ? sql`on conflict do nothing` : sql``}
        returning ${eventSubjectColumns()}
      ), ${STORE_RECIPIENTS}, ${emailEventCtes('stored', { tally: false })}
      ${answer}`;
}

type StoreRow = { id: string; queued: number };
// Live email moves the organization's sending counters in the same statement: accepted exactly when counted.
// One row per stored email, then one per reserved organization (its month's count after the reservation).
type ReservedStoreRow = { id: string | null; organization_id: string; queued: number | null; month_recipients: number | null };

/** The store statement in both shapes (keyed, plain), prepared once per database. */
function statementsFor<Row>(withinLimits: boolean) {
  const name = withinLimits ? 'emails_within_limits' : 'emails';
  return {
    keyed: perDatabase((db: Db) => prepareSql<Row>(db, `store_keyed_${name}`, storeStatement(withinLimits, true))),
    plain: perDatabase((db: Db) => prepareSql<Row>(db, `store_${name}`, storeStatement(withinLimits, false))),
  };
}
const storeOn = statementsFor<StoreRow>(false);
const storeWithinLimitsOn = statementsFor<ReservedStoreRow>(true);

/**
 * Whether a draft carries a unique key another stored email may hold already: the emails table's
 * partial unique indexes (db/schema/emails.ts: idempotency key, broadcast contact), named here by hand.
 */
const keyedDraft = (draft: EmailDraft) => draft.row.idempotencyKey != null || draft.row.broadcastId != null;
const shapeOf = (drafts: EmailDraft[]) => (drafts.some(keyedDraft) ? 'keyed' : 'plain');

export interface StoreResult {
  stored: Set<string>;
  deliveriesQueued: boolean;
  /** With a reservation: whether the counters still had room (nothing is stored when not), and the month's count after it. */
  reserved: boolean;
  monthRecipients: number | null;
}

const draftValues = (drafts: EmailDraft[]) => ({
  emails: drafts.map((draft) => draft.row),
  events: flatMapped(drafts, ({ row, events: list }) => emailEventRecords(row.id, row.createdAt, list)),
  recipients: recipientRecords(drafts),
});

/**
 * Stores accepted emails with their events, all stamped with the email's `createdAt`; returns the
 * ids that were stored (an email whose idempotency key is taken is not), and whether webhook
 * deliveries were queued. `db` may be a transaction, when attachments ride along.
 */
export async function storeEmails(db: Db, drafts: EmailDraft[], reservation: Reservation | null = null): Promise<StoreResult> {
  if (drafts.length === 0) return { stored: new Set(), deliveriesQueued: false, reserved: true, monthRecipients: null };
  if (reservation) return (await storeReserved(db, [{ drafts, reservation }]))[0]!;
  const stored = await storeOn[shapeOf(drafts)](db).execute(draftValues(drafts));
  return { stored: new Set(stored.map((row) => row.id)), deliveriesQueued: (stored[0]?.queued ?? 0) > 0, reserved: true, monthRecipients: null };
}

/** Emails of one organization, stored only if its reservation still fits. */
export interface ReservedStore {
  drafts: EmailDraft[];
  reservation: Reservation;
}

/**
 * Several organizations' emails in one statement, each organization's counted against its own
 * reservation: an organization whose room was taken meanwhile stores nothing, the others store
 * theirs. At most one reservation per organization (a second would count twice against one row).
 */
export async function storeReserved(db: Db, stores: ReservedStore[]): Promise<StoreResult[]> {
  const organizations = new Set(stores.map((store) => store.reservation.organizationId));
  if (organizations.size !== stores.length) throw new Error('one reservation per organization in a store statement');
  const drafts = flatMapped(stores, (store) => store.drafts);
  const rows = await storeWithinLimitsOn[shapeOf(drafts)](db).execute({
    ...draftValues(drafts),
    reservations: reservationRecords(stores.map((store) => store.reservation)),
  });
  const queued = rows.some((row) => (row.queued ?? 0) > 0);
  return stores.map(({ reservation }) => {
    const mine = rows.filter((row) => row.organization_id === reservation.organizationId);
    const counted = mine.find((row) => row.id === null);
    const stored = new Set(flatMapped(mine, (row) => (row.id === null ? [] : [row.id])));
    // The statement counts its queued deliveries together: each organization that stored anything wakes the sweep.
    return { stored, deliveriesQueued: queued && stored.size > 0, reserved: counted !== undefined, monthRecipients: counted?.month_recipients ?? null };
  });
}
