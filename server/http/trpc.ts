import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { AppRouter } from '../routers';
import type { Runtime } from '../runtime';
import type { AccessMeta } from '../trpc/init';
import { toEnvelope } from '../trpc/envelope';
import { bodyLimitOf } from '../trpc/request-limits';
import { trpcContext } from './trpc-context';

export const TRPC_PATH = '/api/trpc';

/**
 * The most calls one request may batch. The dashboard's httpBatchLink sends what one render asks
 * for (app/providers.tsx caps it at 20 a request); 50 is far past that and keeps one request's
 * work bounded. Each call counts against the rate limit anyway.
 */
export const MAX_BATCH_CALLS = 50;

type ProcedureTable = Record<string, { _def: { meta?: AccessMeta } } | undefined>;

/** The procedures a request names: `a,b,c` with `?batch=1`, as tRPC reads it (percent-decoded), else one. */
export function calledProcedures(path: string, search: URLSearchParams): string[] {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // tRPC refuses it itself.
  }
  return search.get('batch') === '1' ? decoded.split(',') : [decoded];
}

/**
 * A body is held to the REST route's limit of the procedure it calls (server/trpc/request-limits.ts);
 * a batch to the largest of its procedures'. A procedure nobody has gets the smallest.
 */
function batchBodyLimit(procedures: ProcedureTable, names: string[], configured: number): number {
  return Math.max(...names.map((name) => bodyLimitOf(Object.hasOwn(procedures, name) ? (procedures[name]?._def ?? {}) : {}, configured)));
}

/**
 * `/api/trpc` served by the process's own listener, for the dashboard and for first-party apps
 * with an API key alike: no Next build on an API client's path, and the request id is the one the
 * listener put on the response.
 */
export function createTrpcHandler(runtime: Pick<Runtime, 'deps' | 'auth'>, router: AppRouter) {
  const procedures = router._def.procedures as unknown as ProcedureTable;
  const fallbackLimit = runtime.deps.config.bodyLimitBytes;

  return function handleTrpc(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): Promise<void> {
    // Procedures set headers (the rate limit) through the context; they reach the response through
    // responseMeta, which a streamed batch calls before any procedure ran: there they are dropped
    // rather than written after the head has gone out.
    const headers: Record<string, string> = {};
    const procedurePath = path.replace(/^\/+|\/+$/g, '');
    const queryAt = (req.url ?? '').indexOf('?');
    const search = new URLSearchParams(queryAt === -1 ? '' : (req.url ?? '').slice(queryAt + 1));
    const names = calledProcedures(procedurePath, search);
    return nodeHTTPRequestHandler({
      req,
      res,
      router,
      path: procedurePath,
      // Past it, tRPC refuses the whole request (400) before any call runs or the body is read.
      maxBatchSize: MAX_BATCH_CALLS,
      maxBodySize: batchBodyLimit(procedures, names.slice(0, MAX_BATCH_CALLS), fallbackLimit),
      // A query may come as a POST: a preview of content being written carries bodies larger than a URL holds.
      allowMethodOverride: true,
      // Each call of a batch takes its place in the rate limit.
      createContext: ({ info }) => trpcContext(runtime, req, requestId, (name, value) => (headers[name] = value), Math.max(1, info.calls.length)),
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
