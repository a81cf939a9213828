import { and, eq, inArray } from 'drizzle-orm';
import { audiences, contactImports, contactProperties, topics } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import type { ImportConflictMode } from '../../vocabulary/contact-imports';
import { refuseRuleSegment } from '../segments/crud';
import type { Principal } from '../shared/principal';
import { resolveColumns, type ColumnMap } from './columns';
import './holds';
import type { ReceivedFile } from './receive';
import { importView, type ContactImportView } from './view';

export interface ImportOptions {
  columnMap?: ColumnMap;
  /** Ours: whether the first record is a header (Resend's files always have one). */
  hasHeader: boolean;
  segmentIds: string[];
  topics: Array<{ id: string; subscription: 'opt_in' | 'opt_out' }>;
  onConflict: ImportConflictMode;
  /** The organization declares every row's consent confirmed (docs/consent.md). */
  confirmedConsent: boolean;
}

/** Segments one import may fill: as many as a contact create takes. */
export const IMPORT_SEGMENTS_MAX = 100;

/**
 * Queues a received file for the background import (run.ts): its columns resolved against the
 * file's header and the organization's properties, its segments and topics the organization's own
 * (404 otherwise; held from deletion until the import ends: holds.ts, topics/crud.ts), a topic at
 * most once (400). The caller discards the file when this refuses.
 */
export async function queueContactImport(deps: Pick<Deps, 'db' | 'jobs'>, principal: Principal, file: ReceivedFile, options: ImportOptions): Promise<ContactImportView> {
  const topicChoices = options.topics.map((choice) => ({ id: choice.id.toLowerCase(), subscription: choice.subscription }));
  for (const [index, choice] of topicChoices.entries()) {
    if (topicChoices.findIndex((other) => other.id === choice.id) !== index) throw validationError(`topics[${index}].id: the topic ${choice.id} is given twice`);
  }
  const properties = new Map(
    (await deps.db.select({ key: contactProperties.key, type: contactProperties.type }).from(contactProperties).where(eq(contactProperties.organizationId, principal.organizationId))).map(
      (row) => [row.key, row.type],
    ),
  );
  const columns = resolveColumns(options.columnMap, { header: file.firstRecord, hasHeader: options.hasHeader }, properties);
  const segmentIds = [...new Set(options.segmentIds)];
  const row = await deps.db.transaction(async (tx) => {
    if (segmentIds.length > 0) {
      // Key-share locks: a segment being deleted now is either gone (404) or sees this import's hold.
      const found = await tx
        .select({ id: audiences.id, name: audiences.name, rules: audiences.rules })
        .from(audiences)
        .where(and(inArray(audiences.id, segmentIds), eq(audiences.organizationId, principal.organizationId)))
        .for('key share');
      const missing = segmentIds.find((id) => !found.some((segment) => segment.id === id));
      if (missing) throw new AppError('NOT_FOUND', `Segment ${missing} not found`);
      for (const segment of found) refuseRuleSegment(segment);
    }
    if (topicChoices.length > 0) {
      // Key-share locks, as for segments: a topic being deleted now is either gone (404) or sees this import.
      const found = await tx
        .select({ id: topics.id })
        .from(topics)
        .where(and(inArray(topics.id, topicChoices.map((choice) => choice.id)), eq(topics.organizationId, principal.organizationId)))
        .for('key share');
      const missing = topicChoices.find((choice) => !found.some((topic) => topic.id === choice.id));
      if (missing) throw new AppError('NOT_FOUND', `Topic ${missing.id} not found`);
    }
    const [queued] = await tx
      .update(contactImports)
      .set({
        status: 'queued',
        hasHeader: options.hasHeader,
        columnCount: file.firstRecord.length,
        columns,
        segmentIds,
        topics: topicChoices,
        onConflict: options.onConflict,
        confirmedConsent: options.confirmedConsent,
        total: file.records - (options.hasHeader ? 1 : 0),
        nextChunk: 0,
        nextRecord: options.hasHeader ? 1 : 0,
      })
      .where(and(eq(contactImports.id, file.importId), eq(contactImports.status, 'receiving')))
      .returning();
    if (!queued) throw new AppError('NOT_FOUND', 'Contact import not found');
    return queued;
  });
  deps.jobs.wake('contact-import', row.id, { organizationId: row.organizationId });
  return importView(row);
}
