import type { Readable } from 'node:stream';
import type { Deps } from '../../deps';
import { exportSuppressions } from '../../services/suppressions/export';
import type { Principal } from '../../services/shared/principal';

/** The headers of the CSV download, whichever door it goes out of. */
export const SUPPRESSION_EXPORT_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': 'attachment; filename="suppressions.csv"',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
};

interface SuppressionExport {
  headers: Readonly<Record<string, string>>;
  /** The CSV, read from the database as it is taken (see services/suppressions/export.ts). */
  body: Readable;
}

/**
 * The list as a CSV download, one implementation for `GET /api/suppressions/export` and the
 * dashboard's button. The first chunk is read before this returns, so a database that is away is
 * still an error the caller answers with a status.
 */
export async function suppressionExport(deps: Pick<Deps, 'db'>, principal: Principal): Promise<SuppressionExport> {
  return { headers: SUPPRESSION_EXPORT_HEADERS, body: await exportSuppressions(deps, principal) };
}

/** A client that went away (or a body cancelled) ends the stream this way: not a failure worth a log line. */
export const isClosedEarly = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ABORT_ERR' || (error as Error | null)?.name === 'AbortError';
};
