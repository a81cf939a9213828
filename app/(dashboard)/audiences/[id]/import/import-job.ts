import type { RouterOutputs } from '@/server/routers/types';
import { DASHBOARD_UPLOAD_HEADER, DASHBOARD_UPLOAD_PATH } from '@/server/vocabulary/contact-imports';
import type { ColumnMapping, SkippedRow } from './contact-rows';

/** An import as GET /contacts/imports/{id} answers it. */
export type ContactImport = RouterOutputs['contactImports']['get'];

/** Rows one batch of the import stores (the server's IMPORT_BATCH_ROWS). */
const BATCH_ROWS = 1_000;

/**
 * The import's `column_map` for the dashboard's mapping: columns by position (1 for the first), so a
 * file without a header or with two columns of one title reads as the preview did. The
 * subscription column is the audience's (ours: `subscription`), read as the mapping says.
 */
export function columnMapOf(mapping: ColumnMapping): Record<string, unknown> {
  const position = (index: number | null) => (index === null ? undefined : index + 1);
  return {
    email: position(mapping.email),
    name: position(mapping.name),
    first_name: position(mapping.firstName),
    last_name: position(mapping.lastName),
    subscription: mapping.subscription === null ? undefined : { column: position(mapping.subscription), lists: mapping.subscriptionColumn },
  };
}

/** A failed request as the dashboard's errors read it: the server's `{error, code}` under `data.envelope`. */
const failure = (status: number, body: { error?: unknown; code?: unknown } | null) =>
  Object.assign(new Error(typeof body?.error === 'string' ? body.error : `The upload failed (${status})`), {
    data: { envelope: { status, code: typeof body?.code === 'string' ? body.code : 'INTERNAL_ERROR', error: typeof body?.error === 'string' ? body.error : `The upload failed (${status})` } },
  });

/**
 * Sends the file as it was picked to the dashboard's upload (POST /contacts/imports with the
 * session), into the audience, updating the addresses it has (`on_conflict: upsert`), with the
 * member's declaration that every row's person confirmed their consent when they made it
 * (`confirmed_consent`). Answers the import's id; a refusal throws with the server's words.
 */
export async function startImport(
  input: { file: Blob; fileName: string; mapping: ColumnMapping; hasHeader: boolean; audienceId: string; confirmedConsent?: boolean },
  send: typeof fetch = fetch,
): Promise<string> {
  const form = new FormData();
  form.append('column_map', JSON.stringify(columnMapOf(input.mapping)));
  form.append('segments', JSON.stringify([input.audienceId]));
  form.append('on_conflict', 'upsert');
  form.append('header', String(input.hasHeader));
  if (input.confirmedConsent) form.append('confirmed_consent', 'true');
  form.append('file', input.file, input.fileName);
  const response = await send(DASHBOARD_UPLOAD_PATH, { method: 'POST', body: form, headers: { [DASHBOARD_UPLOAD_HEADER]: '1' } });
  const body = (await response.json().catch(() => null)) as { id?: string; error?: string; code?: string } | null;
  if (response.status !== 202 || typeof body?.id !== 'string') throw failure(response.status, body);
  return body.id;
}

/** Where an import stands, for the progress bar: rows read of all, and the batch under way. */
export function progressOf(job: Pick<ContactImport, 'counts'>) {
  const { total, created, updated, skipped, failed } = job.counts;
  const done = created + updated + skipped + failed;
  const batches = Math.max(1, Math.ceil(total / BATCH_ROWS));
  return { total, done, batches, batch: Math.min(Math.floor(done / BATCH_ROWS) + 1, batches) };
}

export const isFinished = (job: Pick<ContactImport, 'status'>) => job.status === 'completed' || job.status === 'failed';

/** The rows the import did not store, as the dashboard lists them. */
export const failedRows = (job: Pick<ContactImport, 'errors'>): SkippedRow[] => job.errors.map(({ row, email, error }) => ({ row, email, error }));

/** The failure of a failed import, as the dashboard's error alert reads errors. */
export const failureOf = (job: Pick<ContactImport, 'failure'>) => (job.failure ? failure(0, job.failure) : null);
