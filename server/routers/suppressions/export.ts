import { pipeline } from 'node:stream/promises';
import type { PlainRoute } from '../../trpc/plain-route';
import { suppressionExport, isClosedEarly } from './csv-download';
import { CSV_COLUMNS } from '../../services/suppressions/export';
import { authorize } from '../../trpc/procedures';

/** The list as a CSV download, streamed from the database; trpc-to-openapi answers JSON only: a plain route. */
export const suppressionExportRoute: PlainRoute = {
  method: 'GET',
  path: '/suppressions/export',
  operation: {
    operationId: 'exportSuppressions',
    tags: ['Suppressions'],
    summary: 'Download the whole list as CSV (email,reason,created_at), newest first',
    description:
      'RFC 4180 with a header line, UTF-8. A cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) is prefixed with a single quote. Streamed: the list is read from the database as the download proceeds.',
    responses: {
      200: {
        description: `The list, one entry per line: ${CSV_COLUMNS.join(',')}`,
        headers: {
          'Content-Disposition': { description: 'attachment; filename="suppressions.csv"', schema: { type: 'string' } },
        },
        content: { 'text/csv': { schema: { type: 'string' }, example: `${CSV_COLUMNS.join(',')}\r\nada@example.com,manual,2026-11-21T10:00:00.000Z\r\n` } },
      },
    },
  },
  async handle({ res, ctx, deps, requestId }) {
    const principal = await authorize(ctx, {});
    // Reads the first chunk: a database that is away is still a 503 here, before any byte is sent.
    const csv = await suppressionExport(deps, principal);
    res.writeHead(200, csv.headers);
    try {
      // Backpressure end to end: the socket's pace decides when the next chunk is read.
      await pipeline(csv.body, res);
    } catch (error) {
      // The status is out: a failure now can only cut the download short (the client sees an
      // incomplete chunked body, never a truncated file that looks whole).
      if (!res.destroyed) res.destroy();
      if (!isClosedEarly(error)) deps.log.error({ requestId, err: error }, 'request failed');
    }
  },
};
