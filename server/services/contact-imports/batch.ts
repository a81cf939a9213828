import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, recordsetOf, tableName } from '@/db/raw-sql';
import { audienceMemberships, audiences, contactImportChunks, contactImports, contactProperties, contacts, contactTopics, organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { IMPORT_ERRORS_KEPT, type ImportRowError } from '../../vocabulary/contact-imports';
import { recordAudit, type AuditSource } from '../audit/record';
import { CONTACT_BATCH_LIMIT } from '../contacts/upsert';
import { namesAfter, NO_NAMES } from '../contacts/names';
import type { ContactRow } from '../contacts/own';
import { changedFields, eventData } from '../contacts/profile-write';
import { memberEvent } from '../contacts/segments';
import { planInForce } from '../plans/effective';
import { logEvents, type EventRow } from '../shared/events';
import { readCsv, type CsvDelimiter, type CsvRecord } from './csv-records';
import { readRow, type ImportRowValues } from './rows';
import type { ContactImportRow } from './view';
import { declareConsentSource, type ConsentSource } from '../consent/source';
import { logConsentChanges } from '../consent/events';
import { addedToSegment, contactCreated, topicSubscribed, topicsJoinedFrom } from '../automations/triggers/contact-events';
import { raiseEvents, type RaisedEvent } from '../automations/triggers/raise';

/** Rows one batch stores, in one transaction: the spec's batch bound. */
export const IMPORT_BATCH_ROWS = CONTACT_BATCH_LIMIT;

/** What a batch did: stored rows with more to come, stored the last ones, stopped the import, or found it not its own to work on. */
export type BatchOutcome = 'more' | 'completed' | 'failed' | 'stopped';

/** The piece of the file a run is reading, parsed once per run rather than once per batch. */
export interface ReadingCache {
  importId?: string;
  seq?: number;
  records?: CsvRecord[];
}

type WorkDeps = Pick<Deps, 'db' | 'clock' | 'jobs' | 'claims'>;

/** A record of the file, with where the batch after it starts. */
interface Taken {
  record: CsvRecord;
  next: { chunk: number; record: number };
}

/** The next records from `at`, across pieces, at most `limit` of them. */
async function takeRecords(tx: Db, row: ContactImportRow, cache: ReadingCache, limit: number): Promise<Taken[]> {
  const taken: Taken[] = [];
  let at = { chunk: row.nextChunk, record: row.nextRecord };
  while (taken.length < limit) {
    const records = await piece(tx, row, at.chunk, cache);
    if (!records) break;
    if (at.record >= records.length) {
      at = { chunk: at.chunk + 1, record: 0 };
      continue;
    }
    for (; at.record < records.length && taken.length < limit; ) {
      const record = records[at.record]!;
      at = { chunk: at.chunk, record: at.record + 1 };
      taken.push({ record, next: at });
    }
  }
  return taken;
}

async function piece(tx: Db, row: ContactImportRow, seq: number, cache: ReadingCache): Promise<CsvRecord[] | null> {
  if (cache.importId === row.id && cache.seq === seq && cache.records) return cache.records;
  const [chunk] = await tx
    .select({ text: contactImportChunks.text, firstLine: contactImportChunks.firstLine })
    .from(contactImportChunks)
    .where(and(eq(contactImportChunks.importId, row.id), eq(contactImportChunks.seq, seq)));
  if (!chunk) return null;
  const { records } = readCsv(chunk.text, { delimiter: row.delimiter as CsvDelimiter, firstLine: chunk.firstLine });
  Object.assign(cache, { importId: row.id, seq, records });
  return records;
}

/** A contact as a batch leaves it: the row to write, and what the file asked of its segments. */
interface Outcome {
  before: ContactRow | null;
  row: ContactRow;
  /** A row of the file said unsubscribed in the import's segments. */
  optOut: boolean;
}

interface BatchCounts {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: ImportRowError[];
}

const SET_KEYS = ['name', 'firstName', 'lastName', 'unsubscribed', 'properties', 'updatedAt'] as const;

/** Existing contacts rewritten by the batch, in one statement. */
const rewriteOn = perDatabase((db: Db) =>
  prepareSql<{ id: string }>(
    db,
    null,
    sql`update ${tableName(contacts, 'c')} set ${sql.join(
      SET_KEYS.map((key) => sql`${column(contacts, key)} = ${column(contacts, key, 'v')}`),
      sql.raw(', '),
    )}
      from ${recordsetOf('rows', 'v', contacts, ['id', ...SET_KEYS])}
      where ${column(contacts, 'id', 'c')} = ${column(contacts, 'id', 'v')}
      returning ${column(contacts, 'id', 'c')}`,
  ),
);

/** The contacts of the batch, read in file order: a later row of an address works on what the earlier ones left (docs/contacts.md, "Imports"). */
function merge(
  rows: Array<{ line: number; values: ImportRowValues }>,
  existing: Map<string, ContactRow>,
  input: { organizationId: string; now: Date; skipExisting: boolean },
  counts: BatchCounts,
): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  const skipped = new Set<string>();
  for (const { values } of rows) {
    if (skipped.has(values.email)) {
      counts.skipped += 1;
      continue;
    }
    let outcome = outcomes.get(values.email);
    if (!outcome) {
      const before = existing.get(values.email) ?? null;
      if (before && input.skipExisting) {
        skipped.add(values.email);
        counts.skipped += 1;
        continue;
      }
      outcome = {
        before,
        row: before ?? {
          id: newId(),
          organizationId: input.organizationId,
          email: values.email,
          ...NO_NAMES,
          unsubscribed: false,
          properties: {},
          lastDeliveredAt: null,
          lastOpenedAt: null,
          lastClickedAt: null,
          pendingSince: null,
          confirmedAt: null,
          createdAt: input.now,
          updatedAt: input.now,
        },
        optOut: false,
      };
      outcomes.set(values.email, outcome);
      if (before) counts.updated += 1;
      else counts.created += 1;
    } else if (input.skipExisting) {
      // Made by an earlier row of this import: it exists now, and is left as that row made it.
      counts.skipped += 1;
      continue;
    } else {
      counts.updated += 1;
    }
    outcome.row = {
      ...outcome.row,
      ...namesAfter(outcome.row, { name: values.name, firstName: values.firstName, lastName: values.lastName }),
      // An import adds an opt-out and never removes one.
      unsubscribed: outcome.row.unsubscribed || values.unsubscribed === true,
      properties: { ...outcome.row.properties, ...values.properties },
    };
    if (values.subscribed === false) outcome.optOut = true;
  }
  return outcomes;
}

/** Thrown inside the batch's transaction when its new addresses would pass the plan's contacts: nothing of the batch is stored. */
class CapReached extends AppError {
  constructor(message: string) {
    super('PLAN_LIMIT_EXCEEDED', message);
  }
}

/**
 * Stores the next rows of an import (at most IMPORT_BATCH_ROWS) in one transaction with the
 * import's progress: where the next batch starts, the counts, the first rows' errors. A batch is
 * stored whole or not at all, so a restart goes on from the last batch stored, and no row is lost
 * or counted twice. The worker must hold the import's claim (run.ts); a worker that lost it stops.
 */
export async function importBatch(deps: WorkDeps, id: string, cache: ReadingCache = {}): Promise<BatchOutcome> {
  try {
    return await deps.db.transaction((tx) => storeBatch(tx, deps, id, cache));
  } catch (error) {
    if (!(error instanceof CapReached)) throw error;
    return failImport(deps, id, { code: error.appCode, error: error.message });
  }
}

/**
 * The import's declaration that its rows' people confirmed their consent: a `confirmed` ledger
 * entry for each contact of the batch (the declared source names the import), but for one
 * unsubscribed from everything, whose opt-out an import never overrides (a pending one is
 * unsubscribed too, and stays asked). The contact's `confirmed_at` copy takes the entry's time, as
 * a clicked link's does: a double opt-in asked later then finds it confirmed and mails nothing,
 * rather than taking it off every list until it confirms again.
 */
async function recordDeclaredConfirmations(tx: Db, organizationId: string, outcomes: Outcome[], now: Date): Promise<void> {
  const confirmed = outcomes.filter((outcome) => !outcome.row.unsubscribed).map((outcome) => outcome.row.id);
  if (confirmed.length === 0) return;
  const ids = `{${confirmed.join(',')}}`;
  await tx.execute(sql`update ${contacts} set confirmed_at = ${now.toISOString()}::timestamptz where organization_id = ${organizationId} and id = any(${ids}::uuid[])`);
  await tx.execute(sql`select consent_append(c.organization_id, c.id, c.email, 'confirmed', null, null, 'import', null, ${now.toISOString()}::timestamptz)
    from ${contacts} c where c.organization_id = ${organizationId} and c.id = any(${ids}::uuid[]) order by c.id`);
}

/** The import, and who asked for it (a key or a member), as the consent ledger names them. */
function importSource(importId: string, by: AuditSource): ConsentSource {
  const actor = by.actor;
  return { via: 'import', importId, apiKeyId: actor.kind === 'api_key' ? actor.keyId : null, userId: actor.kind === 'user' ? actor.userId : null };
}

async function storeBatch(tx: Db, deps: WorkDeps, id: string, cache: ReadingCache): Promise<BatchOutcome> {
  const [row] = await tx.select().from(contactImports).where(eq(contactImports.id, id)).for('update');
  if (!row || row.claimedBy !== deps.claims.id || (row.status !== 'queued' && row.status !== 'in_progress') || !row.columns) return 'stopped';
  await declareConsentSource(tx, importSource(row.id, row.requestedBy as unknown as AuditSource));
  const now = deps.clock.now();
  const taken = await takeRecords(tx, row, cache, IMPORT_BATCH_ROWS);
  const propertyTypes = new Map(
    (await tx.select({ key: contactProperties.key, type: contactProperties.type }).from(contactProperties).where(eq(contactProperties.organizationId, row.organizationId))).map((p) => [p.key, p.type]),
  );

  const counts: BatchCounts = { created: 0, updated: 0, skipped: 0, failed: 0, errors: [] };
  const valid: Array<{ line: number; values: ImportRowValues }> = [];
  for (const { record } of taken) {
    const reading = readRow(record, row.columns, row.columnCount, propertyTypes);
    if ('values' in reading) valid.push({ line: record.line, values: reading.values });
    else {
      counts.failed += 1;
      counts.errors.push({ row: record.line, email: reading.email, error: reading.error });
    }
  }

  // The organization's lock first (the cap), as every writer of contacts takes it.
  const plan = await planInForce(tx, row.organizationId, now, { lock: true });
  const [{ used } = { used: 0 }] = await tx.select({ used: organizations.contactCount }).from(organizations).where(eq(organizations.id, row.organizationId));
  const emails = [...new Set(valid.map((entry) => entry.values.email))];
  const existing = new Map<string, ContactRow>();
  if (emails.length > 0) {
    const found = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.organizationId, row.organizationId), inArray(contacts.email, emails)))
      .orderBy(asc(contacts.id))
      .for('update');
    for (const contact of found) existing.set(contact.email, contact);
  }
  const outcomes = merge(valid, existing, { organizationId: row.organizationId, now, skipExisting: row.onConflict === 'skip' }, counts);
  const created = [...outcomes.values()].filter((outcome) => !outcome.before);
  if (created.length > 0 && used + created.length > plan.contacts) {
    const left = Math.max(plan.contacts - used, 0);
    const firstLine = taken[0]?.record.line ?? 0;
    throw new CapReached(
      `The ${plan.label} plan stores ${plan.contacts.toLocaleString('en')} contacts across all audiences; ${left.toLocaleString('en')} ${left === 1 ? 'slot is' : 'slots are'} left and the rows from line ${firstLine.toLocaleString('en')} on add ${created.length.toLocaleString('en')} in their next ${IMPORT_BATCH_ROWS.toLocaleString('en')}. They were not imported; delete contacts or upgrade, then import them again`,
    );
  }

  const events: EventRow[] = [];
  const event = (type: 'contact.created' | 'contact.updated', data: Record<string, unknown>) => events.push({ id: newId(), organizationId: row.organizationId, type, data, createdAt: now });
  if (created.length > 0) {
    await tx.insert(contacts).values(created.map((outcome) => outcome.row));
    await tx
      .update(organizations)
      .set({ contactCount: sql`${organizations.contactCount} + ${created.length}` })
      .where(eq(organizations.id, row.organizationId));
    for (const outcome of created) event('contact.created', eventData(outcome.row));
  }
  const rewritten = [...outcomes.values()].filter((outcome) => outcome.before && changedFields(outcome.before, outcome.row).length > 0);
  if (rewritten.length > 0) {
    await rewriteOn(tx).execute({ rows: rewritten.map((outcome) => ({ id: outcome.row.id, name: outcome.row.name, first_name: outcome.row.firstName, last_name: outcome.row.lastName, unsubscribed: outcome.row.unsubscribed, properties: outcome.row.properties, updated_at: now })) });
    for (const outcome of rewritten) event('contact.updated', eventData({ ...outcome.row, updatedAt: now }));
  }
  const raised = [contactCreated(created.filter((outcome) => !outcome.row.unsubscribed).map((outcome) => outcome.row))];
  for (const segmentId of row.segmentIds) raised.push(await joinSegment(tx, row.organizationId, segmentId, [...outcomes.values()], now, event));
  raised.push(...(await chooseTopics(tx, row.organizationId, row.topics, [...outcomes.values()], now)));
  await raiseEvents(tx, deps, { organizationId: row.organizationId }, raised);
  if (row.confirmedConsent) await recordDeclaredConfirmations(tx, row.organizationId, [...outcomes.values()], now);
  await logEvents(tx, deps, events);
  await logConsentChanges(tx, deps);

  const last = taken.at(-1)?.next ?? { chunk: row.nextChunk, record: row.nextRecord };
  // Every record is counted once, whatever became of it; no record left means done too (an emptied file).
  const done = taken.length === 0 || row.created + row.updated + row.skipped + row.failed + taken.length >= row.total;
  const errors = [...row.errors, ...counts.errors].slice(0, IMPORT_ERRORS_KEPT);
  const [updated] = await tx
    .update(contactImports)
    .set({
      status: done ? 'completed' : 'in_progress',
      created: row.created + counts.created,
      updated: row.updated + counts.updated,
      skipped: row.skipped + counts.skipped,
      failed: row.failed + counts.failed,
      errors,
      nextChunk: last.chunk,
      nextRecord: last.record,
      startedAt: row.startedAt ?? now,
      completedAt: done ? now : null,
    })
    .where(eq(contactImports.id, id))
    .returning();
  if (done) await finish(tx, deps, updated!);
  return done ? 'completed' : 'more';
}

/**
 * The contacts of the batch (created, or upserted) join the segment: a new member subscribed unless
 * its row said otherwise, an existing one turned unsubscribed when a row said so and never back on.
 * The segment's count and one event per member that joined or changed.
 */
async function joinSegment(tx: Db, organizationId: string, segmentId: string, outcomes: Outcome[], now: Date, event: (type: 'contact.created' | 'contact.updated', data: Record<string, unknown>) => void): Promise<RaisedEvent> {
  if (outcomes.length === 0) return addedToSegment(segmentId, []);
  const byId = new Map(outcomes.map((outcome) => [outcome.row.id, outcome.row]));
  const changed = await tx
    .insert(audienceMemberships)
    .values(outcomes.map((outcome) => ({ id: newId(), audienceId: segmentId, contactId: outcome.row.id, organizationId, subscribed: !outcome.optOut, createdAt: now, updatedAt: now })))
    .onConflictDoUpdate({
      target: [audienceMemberships.audienceId, audienceMemberships.contactId],
      set: { subscribed: false, updatedAt: now },
      setWhere: sql`${audienceMemberships.subscribed} and not excluded.${sql.identifier(audienceMemberships.subscribed.name)}`,
    })
    .returning({ contactId: audienceMemberships.contactId, subscribed: audienceMemberships.subscribed, created: sql<boolean>`(xmax = 0)` });
  const joined = changed.filter((membership) => membership.created).length;
  if (joined > 0) {
    await tx
      .update(audiences)
      .set({ contactCount: sql`${audiences.contactCount} + ${joined}` })
      .where(eq(audiences.id, segmentId));
  }
  for (const membership of changed) {
    event(membership.created ? 'contact.created' : 'contact.updated', memberEvent(byId.get(membership.contactId)!, segmentId, membership.subscribed));
  }
  // For automations: the new subscribed members that are subscribed contacts (a pending one joins when it confirms).
  return addedToSegment(
    segmentId,
    changed.filter((membership) => membership.created && membership.subscribed).map((membership) => byId.get(membership.contactId)!).filter((contact) => contact.pendingSince === null),
  );
}

/**
 * The contacts of the batch (created, or upserted) take the import's topic choices as their own.
 * An import adds opt-outs and never removes one: `opt_out` is written over any state, `opt_in`
 * only where the contact has not left the topic itself. A choice that stays as it was keeps its
 * time (the fan-out reads it).
 */
async function chooseTopics(tx: Db, organizationId: string, choices: Array<{ id: string; subscription: string }>, outcomes: Outcome[], now: Date): Promise<RaisedEvent[]> {
  if (outcomes.length === 0) return [];
  const joined = new Map<string, string[]>();
  for (const choice of choices) {
    const subscribed = choice.subscription === 'opt_in';
    const insert = tx.insert(contactTopics).values(outcomes.map((outcome) => ({ contactId: outcome.row.id, topicId: choice.id, organizationId, subscribed, updatedAt: now })));
    // In: only where the contact has no choice of its own yet. Out: a contact in the topic is taken out.
    if (subscribed) joined.set(choice.id, (await insert.onConflictDoNothing().returning({ contactId: contactTopics.contactId })).map((row) => row.contactId));
    else await insert.onConflictDoUpdate({ target: [contactTopics.contactId, contactTopics.topicId], set: { subscribed: false, updatedAt: now }, setWhere: sql`${contactTopics.subscribed}` });
  }
  // For automations: the choices that changed where the contact stands (a topic in by default had them in already).
  const byId = new Map(outcomes.map((outcome) => [outcome.row.id, outcome.row]));
  const changed = await topicsJoinedFrom(tx, [...joined.keys()].filter((topicId) => joined.get(topicId)!.length > 0));
  return changed.map((topicId) => topicSubscribed(topicId, joined.get(topicId)!.map((id) => byId.get(id)!).filter((contact) => contact.pendingSince === null)));
}

/** The end of an import, in the transaction of its last batch: its file deleted, one audit entry with the counts, by whoever asked for it. */
async function finish(tx: Db, deps: Pick<Deps, 'clock'>, row: ContactImportRow): Promise<void> {
  await tx.delete(contactImportChunks).where(eq(contactImportChunks.importId, row.id));
  await recordAudit(tx, deps, {
    organizationId: row.organizationId,
    by: row.requestedBy as unknown as AuditSource,
    action: 'contact.imported',
    target: { type: 'contact_import', id: row.id, label: row.fileName },
    details: {
      status: row.status,
      total: row.total,
      created: row.created,
      updated: row.updated,
      skipped: row.skipped,
      failed: row.failed,
      segments: row.segmentIds.length,
      topics: row.topics.length,
      onConflict: row.onConflict,
      ...(row.failure ? { failure: row.failure.code } : {}),
    },
  });
}

/** Stops an import that cannot go on (the plan's contact cap): failed, with the reason; what earlier batches stored stays. */
async function failImport(deps: WorkDeps, id: string, failure: { code: string; error: string }): Promise<BatchOutcome> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(contactImports).where(eq(contactImports.id, id)).for('update');
    if (!row || row.claimedBy !== deps.claims.id || (row.status !== 'queued' && row.status !== 'in_progress')) return 'stopped';
    const now = deps.clock.now();
    const [failed] = await tx
      .update(contactImports)
      .set({ status: 'failed', failure, startedAt: row.startedAt ?? now, completedAt: now })
      .where(eq(contactImports.id, id))
      .returning();
    await finish(tx, deps, failed!);
    return 'failed';
  });
}
