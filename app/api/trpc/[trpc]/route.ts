import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '@/server/routers';
import { dashboardContext } from '@/server/auth/session-context';
import { requestIdOf } from '@/server/http/request-id';
import { getRuntime } from '@/server/runtime-registry';

export const dynamic = 'force-dynamic';

function handler(req: Request): Promise<Response> {
  const runtime = getRuntime();
  const requestId = requestIdOf(req.headers);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => dashboardContext(runtime.deps, runtime.auth, req.headers, requestId, () => {}),
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`[trpc] request ${requestId} failed`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
