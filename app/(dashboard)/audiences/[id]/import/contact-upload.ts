import { describeError } from '../../../../lib/errors';
import { chunk, CONTACT_BATCH_SIZE } from '../contact-batches';
import type { ContactFields, ImportRow, SkippedRow } from './contact-rows';

/** What `batchContacts` answers for one batch. */
export interface BatchAnswer {
  created: number;
  updated: number;
  unchanged: number;
  /** Rows refused by the server; `index` is the position in the batch sent. */
  errors: Array<{ index: number; email: string; error: string }>;
}

export type SendBatch = (contacts: ContactFields[]) => Promise<BatchAnswer>;

export interface UploadProgress {
  rowsTotal: number;
  /** Rows answered for: stored, unchanged, merged or refused. */
  rowsDone: number;
  batchesTotal: number;
  batchesDone: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Rows of a batch that repeated an address of the same batch: the server kept the later one. */
  merged: number;
  /** Rows the server refused, with their line in the file. */
  skipped: SkippedRow[];
}

export interface UploadOutcome extends UploadProgress {
  /** The error that stopped the upload (a plan's cap, the network…), or null. */
  failure: unknown;
  /** Stopped on request between two batches. */
  cancelled: boolean;
  /** Rows not sent (or not answered for) when the upload stopped. */
  rowsLeft: number;
}

/**
 * The rows a validation error names: the server prefixes each problem with its field's path
 * ("contacts.12.name: must be at most 200 characters; contacts.40.email: …").
 */
export function rowIssues(message: string): Array<{ index: number; error: string }> {
  const start = /(?:^|; )contacts\.(\d+)\.(\w+): /g;
  const starts = [...message.matchAll(start)];
  return starts.map((match, at) => {
    const end = starts[at + 1]?.index ?? message.length;
    return { index: Number(match[1]), error: `${match[2]}: ${message.slice(match.index + match[0].length, end)}` };
  });
}

/**
 * Uploads the rows in batches of 1,000, one after the other, and adds up the answers. A row the
 * server refuses is listed and the others are stored. A batch refused whole stops the upload with
 * that error (the plan's contact cap refuses a batch whole and says how many slots are left),
 * except two cases the client can answer: a validation error that names rows (a name too long)
 * skips those rows and sends the rest again, and a body too large is sent again in two halves.
 */
export async function uploadContacts(
  rows: ImportRow[],
  send: SendBatch,
  { batchSize = CONTACT_BATCH_SIZE, onProgress, shouldStop }: { batchSize?: number; onProgress?: (progress: UploadProgress) => void; shouldStop?: () => boolean } = {},
): Promise<UploadOutcome> {
  const queue = chunk(rows, batchSize);
  const progress: UploadProgress = {
    rowsTotal: rows.length,
    rowsDone: 0,
    batchesTotal: queue.length,
    batchesDone: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    merged: 0,
    skipped: [],
  };
  const report = () => onProgress?.({ ...progress, skipped: [...progress.skipped] });
  const finish = (failure: unknown, cancelled = false): UploadOutcome => ({ ...progress, failure, cancelled, rowsLeft: progress.rowsTotal - progress.rowsDone });

  report();
  while (queue.length > 0) {
    if (shouldStop?.()) return finish(null, true);
    const batch = queue.shift()!;
    let answer: BatchAnswer;
    try {
      answer = await send(batch.map((entry) => entry.contact));
    } catch (error) {
      const { code, message } = describeError(error);
      const issues = code === 'VALIDATION_ERROR' ? rowIssues(message).filter((issue) => issue.index < batch.length) : [];
      if (issues.length > 0) {
        const refused = new Map<number, string[]>();
        for (const { index, error: text } of issues) refused.set(index, [...(refused.get(index) ?? []), text]);
        for (const [index, texts] of refused) progress.skipped.push({ row: batch[index]!.row, email: batch[index]!.contact.email, error: texts.join('; ') });
        progress.rowsDone += refused.size;
        const rest = batch.filter((_, index) => !refused.has(index));
        if (rest.length > 0) queue.unshift(rest);
        else progress.batchesDone += 1;
        report();
        continue;
      }
      if (code === 'PAYLOAD_TOO_LARGE' && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        queue.unshift(batch.slice(0, half), batch.slice(half));
        progress.batchesTotal += 1;
        report();
        continue;
      }
      return finish(error);
    }
    progress.created += answer.created;
    progress.updated += answer.updated;
    progress.unchanged += answer.unchanged;
    progress.merged += Math.max(0, batch.length - answer.errors.length - answer.created - answer.updated - answer.unchanged);
    for (const { index, email, error } of answer.errors) progress.skipped.push({ row: batch[index]?.row ?? 0, email, error });
    progress.rowsDone += batch.length;
    progress.batchesDone += 1;
    report();
  }
  return finish(null);
}

/** Skipped rows in file order, the first `limit` of them, and how many more there are. */
export function firstSkipped(skipped: SkippedRow[], limit = 100): { shown: SkippedRow[]; more: number } {
  const sorted = [...skipped].sort((a, b) => a.row - b.row);
  return { shown: sorted.slice(0, limit), more: Math.max(0, sorted.length - limit) };
}
