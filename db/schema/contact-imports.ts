import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { claimColumns } from './claims';
import { organizations } from './organizations';
import { CONTACT_IMPORT_STATUSES, IMPORT_CONFLICT_MODES, type ImportColumns, type ImportRowError } from '@/server/vocabulary/contact-imports';

/**
 * A CSV file of contacts imported in the background (docs/contacts.md, "Imports"). Its file is kept
 * in `contact_import_chunks` until it is done; `next_chunk` and `next_record` say where the next
 * batch starts, written in the transaction that stores the batch before it, so a restart resumes
 * there and no row is stored or counted twice.
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CONTACT_IMPORT_STATUSES }).notNull(),
    fileName: text('file_name'),
    fileBytes: integer('file_bytes').notNull().default(0),
    delimiter: text('delimiter').notNull().default(','),
    hasHeader: boolean('has_header').notNull().default(true),
    /** Fields of the first record: what every row must have. */
    columnCount: integer('column_count').notNull().default(0),
    columns: jsonb('columns').$type<ImportColumns>(),
    segmentIds: jsonb('segment_ids').$type<string[]>().notNull().default([]),
    /** Resend's topic subscriptions, kept as given (none may be given yet). */
    topics: jsonb('topics').$type<Array<{ id: string; subscription: string }>>().notNull().default([]),
    onConflict: text('on_conflict', { enum: IMPORT_CONFLICT_MODES }).notNull().default('skip'),
    /**
     * The organization declared that every row's person confirmed their consent (a double opt-in
     * held elsewhere): each imported contact gets a `confirmed` ledger entry naming the import (docs/consent.md).
     */
    confirmedConsent: boolean('confirmed_consent').notNull().default(false),
    /** Who asked for it, for the audit entry written when it ends (the request's actor and origin). */
    requestedBy: jsonb('requested_by').$type<Record<string, unknown>>().notNull(),
    total: integer('total').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** The first rows not stored, in file order, with their reason. */
    errors: jsonb('errors').$type<ImportRowError[]>().notNull().default([]),
    /** What stopped a failed import. */
    failure: jsonb('failure').$type<{ code: string; error: string }>(),
    nextChunk: integer('next_chunk').notNull().default(0),
    nextRecord: integer('next_record').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    ...claimColumns(),
  },
  (t) => [
    index('contact_imports_org_idx').on(t.organizationId, t.id),
    // What the sweep claims, and the receiving rows it clears: a few rows whatever the history.
    index('contact_imports_pending_idx').on(t.createdAt).where(sql`${t.status} in ('receiving', 'queued', 'in_progress')`),
  ],
);

/**
 * An import's file as it arrived, in pieces of whole records (UTF-8 text), each with its number of
 * records and the line of the file it starts on: a batch reads the piece it resumes in and parses it
 * on its own. Deleted when the import ends.
 */
export const contactImportChunks = pgTable(
  'contact_import_chunks',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => contactImports.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    text: text('text').notNull(),
    records: integer('records').notNull(),
    firstLine: integer('first_line').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.seq] })],
);
