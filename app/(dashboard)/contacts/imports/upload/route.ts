import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { dashboardContext } from '@/server/auth/session-context';
import { AppError, clientErrorOf } from '@/server/errors';
import { errorResponse } from '@/server/http/error-body';
import { requestIdOf } from '@/server/http/request-id';
import { importFromForm } from '@/server/routers/contact-imports/upload';
import { getRuntime } from '@/server/runtime-registry';
import { authorize, requireRoleFor } from '@/server/trpc/procedures';
import { DASHBOARD_UPLOAD_HEADER } from '@/server/vocabulary/contact-imports';

export const dynamic = 'force-dynamic';

/**
 * The dashboard's import: `POST /api/contacts/imports` with the signed-in person's session instead
 * of an API key, the same form streamed to the same service. Held to the rule of adding contacts
 * (contacts.create) and, like every write of the dashboard, refused in test mode.
 */
export async function POST(req: Request): Promise<Response> {
  const runtime = getRuntime();
  const requestId = requestIdOf(req.headers);
  try {
    if (req.headers.get(DASHBOARD_UPLOAD_HEADER) !== '1') throw new AppError('FORBIDDEN', 'Upload the file from the dashboard');
    const principal = await authorize(dashboardContext(runtime.deps, runtime.auth, req.headers, requestId, () => {}), { liveWrite: true });
    requireRoleFor(principal, 'contacts.create');
    if (!req.body) throw new AppError('VALIDATION_ERROR', 'file: required: the CSV file, in a form field named file');
    const body = Readable.fromWeb(req.body as unknown as NodeReadableStream<Uint8Array>);
    const view = await importFromForm(runtime.deps, principal, { headers: Object.fromEntries(req.headers), body });
    return Response.json({ id: view.id, status: view.status }, { status: 202 });
  } catch (error) {
    const known = clientErrorOf(error);
    if (known) return errorResponse(known.appCode, known.message, requestId, known.headers);
    runtime.deps.log.error({ requestId, err: error }, 'contact import upload failed');
    return errorResponse('INTERNAL_ERROR', 'Internal server error', requestId);
  }
}
