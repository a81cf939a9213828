import { serve } from 'inngest/next';
import { inngest } from '@/inngest/client';
import { createFunctions } from '@/inngest/functions';
import { errorResponse } from '@/server/http/error-body';
import { requestIdOf } from '@/server/http/request-id';
import { getRuntime } from '@/server/runtime-registry';

export const dynamic = 'force-dynamic';

const handlers = serve({ client: inngest, functions: createFunctions(() => getRuntime().deps) });

type Handler = (request: Request, context: unknown) => Promise<Response>;

/** Without Inngest configured, the embedded runner drives the same work; say so instead of failing on a missing signing key. */
const whenConfigured =
  (handler: Handler): Handler =>
  async (request, context) =>
    getRuntime().config.inngestEnabled
      ? handler(request, context)
      : errorResponse('NOT_FOUND', 'Inngest is not configured here: the embedded runner drives background work (set INNGEST_* to use Inngest)', requestIdOf(request.headers));

export const GET = whenConfigured(handlers.GET as Handler);
export const POST = whenConfigured(handlers.POST as Handler);
export const PUT = whenConfigured(handlers.PUT as Handler);
