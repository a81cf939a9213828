import { principalFromSession } from '@/server/auth/session-context';
import { AppError, clientErrorOf } from '@/server/errors';
import { attachmentDownload } from '@/server/routers/emails/attachment-download';
import { errorResponse } from '@/server/http/error-body';
import { requestIdOf } from '@/server/http/request-id';
import { getRuntime } from '@/server/runtime-registry';

export const dynamic = 'force-dynamic';

/** The dashboard's attachment download: the signed-in person's session instead of an API key, in the mode the dashboard shows. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string; attachmentId: string }> }): Promise<Response> {
  const { id, attachmentId } = await params;
  const runtime = getRuntime();
  const requestId = requestIdOf(req.headers);
  try {
    const principal = await principalFromSession(runtime.deps, runtime.auth, req.headers);
    if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in to download attachments');
    const file = await attachmentDownload(runtime.deps, principal, id, attachmentId);
    return new Response(new Uint8Array(file.content), { status: 200, headers: file.headers });
  } catch (error) {
    const known = clientErrorOf(error);
    if (known) return errorResponse(known.appCode, known.message, requestId, known.headers);
    runtime.deps.log.error({ requestId, err: error }, 'attachment download failed');
    return errorResponse('INTERNAL_ERROR', 'Internal server error', requestId);
  }
}
