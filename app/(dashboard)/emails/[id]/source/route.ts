import { principalFromSession } from '@/server/auth/session-context';
import { AppError, clientErrorOf, validationError } from '@/server/errors';
import { errorResponse } from '@/server/http/error-body';
import { requestIdOf } from '@/server/http/request-id';
import { isUuid } from '@/server/ids';
import { getRuntime } from '@/server/runtime-registry';
import { rawSourceOf } from '@/server/services/emails/message/raw-source';

export const dynamic = 'force-dynamic';

/**
 * The dashboard's "Download .eml": the whole raw source of the signed-in person's email (in the
 * mode the dashboard shows), always a download, never rendered in our origin.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const runtime = getRuntime();
  const requestId = requestIdOf(req.headers);
  try {
    const principal = await principalFromSession(runtime.deps, runtime.auth, req.headers);
    if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in to download the source');
    if (!isUuid(id)) throw validationError('id must be a UUID');
    const raw = await rawSourceOf(runtime.deps, principal, id);
    if (!raw.available) throw new AppError('CONFLICT', raw.reason);
    return new Response(new Uint8Array(raw.message), {
      status: 200,
      headers: {
        'Content-Type': 'message/rfc822',
        'Content-Length': String(raw.message.length),
        'Content-Disposition': `attachment; filename="email-${id}.eml"`,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      },
    });
  } catch (error) {
    const known = clientErrorOf(error);
    if (known) return errorResponse(known.appCode, known.message, requestId, known.headers);
    runtime.deps.log.error({ requestId, err: error }, 'raw source download failed');
    return errorResponse('INTERNAL_ERROR', 'Internal server error', requestId);
  }
}
