import type { IncomingMessage } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import { dashboardContext } from '../auth/session-context';
import type { Runtime } from '../runtime';
import type { Context } from '../trpc/context';
import { admitRequestKey, apiKeyContext, nodeHeader } from './api-context';
import { notingCaller } from './request-log';

/**
 * Who calls `/api/trpc`: with an Authorization header, an API key admitted exactly as REST admits
 * it (rate limit, permission, mode); without one, the dashboard's signed-in person. A request
 * that sends a header is never read as the session a browser may carry too, so a revoked or
 * malformed key is refused rather than quietly acting as someone else.
 */
export function trpcContext(runtime: Pick<Runtime, 'deps' | 'auth'>, req: IncomingMessage, requestId: string, setHeader: Context['setHeader']): Context {
  const header = nodeHeader(req);
  if (header('authorization') !== undefined) return notingCaller(req, apiKeyContext(runtime.deps, header, requestId, setHeader, () => admitRequestKey(runtime.deps, req)));
  return notingCaller(req, dashboardContext(runtime.deps, runtime.auth, fromNodeHeaders(req.headers), requestId, setHeader));
}
