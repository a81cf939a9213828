import { Readable } from 'node:stream';
import { and, desc, eq, lt } from 'drizzle-orm';
import { stringify, type Options } from 'csv-stringify';
import { suppressions } from '@/db/schema';
import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { SUPPRESSION_LIMITS } from './limits';

/** The columns of `GET /suppressions/export`, in order (design brief). */
export const CSV_COLUMNS = ['email', 'reason', 'created_at'] as const;

/**
 * RFC 4180 (CRLF between records, quotes where needed), a header line, and every cell that a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR, or their
 * full-width forms) prefixed with a single quote: csv-stringify's `escape_formulas` does exactly
 * that (OWASP's CSV injection advice). An address may start with `=`, `+` or `-`.
 */
export const CSV_OPTIONS = {
  header: true,
  columns: [...CSV_COLUMNS],
  record_delimiter: 'windows',
  // A lone CR or LF is quoted too (csv-stringify quotes only the whole record delimiter); addresses
  // cannot hold one, but the file stays readable by every parser whatever a cell holds.
  quoted_match: /[\r\n]/,
  escape_formulas: true,
} as const satisfies Options;

type CsvRecord = [email: string, reason: string, createdAt: string];

/** One chunk of the organization's entries, newest first, below `before` (keyset on the UUIDv7 id). */
async function readChunk(deps: Pick<Deps, 'db'>, principal: Principal, before: string | null, rows: number) {
  return deps.db
    .select({ id: suppressions.id, email: suppressions.email, reason: suppressions.reason, createdAt: suppressions.createdAt })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, principal.organizationId), before ? lt(suppressions.id, before) : undefined))
    .orderBy(desc(suppressions.id))
    .limit(rows);
}

/**
 * The organization's whole list as CSV, newest first, read in chunks as the reader takes it: the
 * stream asks for the next chunk only when the one before has been taken, so a slow client holds
 * back the reading and at most one chunk of rows is in memory, however long the list.
 *
 * Each chunk is its own short query (no transaction or server-side cursor is held open while a
 * client downloads: on PGlite, one connection serves the whole process). So the export is not one
 * snapshot: entries added after it began are not in it, and one removed meanwhile may or may not be.
 * The first chunk is read before this returns, so a database that is away is an error the caller
 * can still answer with a status.
 */
export async function exportSuppressions(deps: Pick<Deps, 'db'>, principal: Principal, options: { chunkRows?: number } = {}): Promise<Readable> {
  const chunkRows = options.chunkRows ?? SUPPRESSION_LIMITS.exportChunkRows;
  const first = await readChunk(deps, principal, null, chunkRows);

  async function* records(): AsyncGenerator<CsvRecord> {
    let chunk = first;
    for (;;) {
      // An erased address's entry holds its hash, not the address: nothing to export.
      for (const row of chunk) if (row.email !== null) yield [row.email, row.reason, row.createdAt.toISOString()];
      if (chunk.length < chunkRows) return;
      chunk = await readChunk(deps, principal, chunk[chunk.length - 1]!.id, chunkRows);
    }
  }

  const csv = stringify(CSV_OPTIONS);
  const source = Readable.from(records());
  source.on('error', (error) => csv.destroy(error));
  csv.on('close', () => source.destroy());
  return source.pipe(csv);
}
