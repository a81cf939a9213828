import { Readable } from 'node:stream';
import { principalFromSession } from '@/server/auth/session-context';
import { AppError, clientErrorOf } from '@/server/errors';
import { errorResponse } from '@/server/http/error-body';
import { requestIdOf } from '@/server/http/request-id';
import { isClosedEarly, suppressionExport } from '@/server/routers/suppressions/csv-download';
import { getRuntime } from '@/server/runtime-registry';

export const dynamic = 'force-dynamic';

/**
 * The dashboard's CSV export: `GET /api/suppressions/export` with the signed-in person's session
 * instead of an API key, streamed as the service reads it.
 */
export async function GET(req: Request): Promise<Response> {
  const runtime = getRuntime();
  const requestId = requestIdOf(req.headers);
  try {
    const principal = await principalFromSession(runtime.deps, runtime.auth, req.headers);
    if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in to export the suppression list');
    // Reads the first chunk: a database that is away is still an error status here.
    const csv = await suppressionExport(runtime.deps, principal);
    // After the status a failure can only cut the download short; it is logged, as on the REST route.
    csv.body.on('error', (error) => {
      if (!isClosedEarly(error)) runtime.deps.log.error({ requestId, err: error }, 'suppression export failed');
    });
    return new Response(Readable.toWeb(csv.body) as ReadableStream<Uint8Array>, { status: 200, headers: csv.headers });
  } catch (error) {
    const known = clientErrorOf(error);
    if (known) return errorResponse(known.appCode, known.message, requestId, known.headers);
    runtime.deps.log.error({ requestId, err: error }, 'suppression export failed');
    return errorResponse('INTERNAL_ERROR', 'Internal server error', requestId);
  }
}
