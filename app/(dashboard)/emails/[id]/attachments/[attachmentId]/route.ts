import { principalFromSession } from '@/server/auth/session-context';
import { AppError } from '@/server/errors';
import { attachmentHeaders } from '@/server/http/attachment-headers';
import { isUuid } from '@/server/ids';
import { getRuntime } from '@/server/runtime-registry';
import { attachmentContent } from '@/server/services/emails/attachments';

export const dynamic = 'force-dynamic';

const refusal = (error: AppError) => Response.json({ error: error.message, code: error.appCode }, { status: error.httpStatus });

/**
 * The dashboard's attachment download: the signed-in person's session instead of an API key, in
 * the mode the dashboard shows, with the same 404 for another organization's email and 410 after
 * the 30 days as `GET /api/emails/{id}/attachments/{attachmentId}`.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string; attachmentId: string }> }): Promise<Response> {
  const { id, attachmentId } = await params;
  const runtime = getRuntime();
  try {
    const principal = await principalFromSession(runtime.deps, runtime.auth, req.headers);
    if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in to download attachments');
    if (!isUuid(id) || !isUuid(attachmentId)) throw new AppError('NOT_FOUND', 'Attachment not found');
    const file = await attachmentContent(runtime.deps, principal, id, attachmentId);
    return new Response(new Uint8Array(file.content), { status: 200, headers: { ...attachmentHeaders(file), 'Cache-Control': 'private, no-store' } });
  } catch (error) {
    if (error instanceof AppError) return refusal(error);
    console.error(`[dashboard] attachment download failed`, error);
    return Response.json({ error: 'Internal server error', code: 'INTERNAL_ERROR' }, { status: 500 });
  }
}
