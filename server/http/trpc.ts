import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { AppRouter } from '../routers';
import type { Runtime } from '../runtime';
import type { AccessMeta } from '../trpc/init';
import { toEnvelope } from '../trpc/envelope';
import { trpcContext } from './trpc-context';

export const TRPC_PATH = '/api/trpc';

/** One body may batch calls to several procedures, so the endpoint takes the largest body any of them accepts. */
function largestBodyLimit(router: AppRouter, fallback: number): number {
  const procedures = Object.values(router._def.procedures) as unknown as Array<{ _def: { meta?: AccessMeta } }>;
  return Math.max(fallback, ...procedures.map((procedure) => procedure._def.meta?.bodyLimitBytes ?? 0));
}

/**
 * `/api/trpc` served by the process's own listener, for the dashboard and for first-party apps
 * with an API key alike: no Next build on an API client's path, and the request id is the one the
 * listener put on the response.
 */
export function createTrpcHandler(runtime: Pick<Runtime, 'deps' | 'auth'>, router: AppRouter) {
  const maxBodySize = largestBodyLimit(router, runtime.deps.config.bodyLimitBytes);

  return function handleTrpc(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): Promise<void> {
    // Procedures set headers (the rate limit) through the context; they reach the response through
    // responseMeta, which a streamed batch calls before any procedure ran: there they are dropped
    // rather than written after the head has gone out.
    const headers: Record<string, string> = {};
    return nodeHTTPRequestHandler({
      req,
      res,
      router,
      path: path.replace(/^\/+|\/+$/g, ''),
      maxBodySize,
      // A query may come as a POST: a preview of content being written carries bodies larger than a URL holds.
      allowMethodOverride: true,
      createContext: () => trpcContext(runtime, req, requestId, (name, value) => (headers[name] = value)),
      responseMeta: ({ errors }) => {
        for (const error of errors) Object.assign(headers, toEnvelope(error).headers);
        return { headers };
      },
      onError: ({ error }) => {
        if (toEnvelope(error).status < 500) return;
        runtime.deps.log.error({ requestId, err: error.cause ?? error }, 'request failed');
      },
    });
  };
}
