import type { IncomingMessage } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import { dashboardContext, principalFromSession } from '../auth/session-context';
import type { Runtime } from '../runtime';
import { countDashboardCalls } from '../services/plans/rate-limits-dashboard';
import type { Admission } from '../services/api-keys/admission';
import type { Context } from '../trpc/context';
import { admitRequestKey, apiKeyContext, nodeHeader } from './api-context';
import { notingCaller } from './request-log';

const SESSION_ADMISSION = Symbol('eumail.session-admission');
type WithSessionAdmission = IncomingMessage & { [SESSION_ADMISSION]?: Promise<Admission | null> };

/**
 * The dashboard session of a request, its calls counted in the organization's dashboard window
 * (rate-limits-dashboard.ts), admitted once however often it is asked for: the edge asks before
 * it reads a body (trpc-early-auth.ts), the procedure again; one session lookup, one count.
 */
export function admitRequestSession(runtime: Pick<Runtime, 'deps' | 'auth'>, req: IncomingMessage, calls = 1): Promise<Admission | null> {
  const request = req as WithSessionAdmission;
  return (request[SESSION_ADMISSION] ??= principalFromSession(runtime.deps, runtime.auth, fromNodeHeaders(req.headers)).then(
    async (principal) => principal && { principal, rateLimit: await countDashboardCalls(runtime.deps, principal.organizationId, calls) },
  ));
}

function countedDashboardContext(runtime: Pick<Runtime, 'deps' | 'auth'>, req: IncomingMessage, requestId: string, setHeader: Context['setHeader'], calls: number): Context {
  const session = dashboardContext(runtime.deps, runtime.auth, fromNodeHeaders(req.headers), requestId, setHeader);
  return { ...session, authenticate: () => admitRequestSession(runtime, req, calls) };
}

/**
 * Who calls `/api/trpc`: with an Authorization header, an API key admitted exactly as REST admits
 * it (rate limit, permission, mode); without one, the dashboard's signed-in person. A request
 * that sends a header is never read as the session a browser may carry too, so a revoked or
 * malformed key is refused rather than quietly acting as someone else. `calls` is the batch's
 * size: each call takes its place in the rate limit, the first one to authenticate takes them all.
 */
export function trpcContext(runtime: Pick<Runtime, 'deps' | 'auth'>, req: IncomingMessage, requestId: string, setHeader: Context['setHeader'], calls = 1): Context {
  const header = nodeHeader(req);
  if (header('authorization') !== undefined) return notingCaller(req, apiKeyContext(runtime.deps, header, requestId, setHeader, () => admitRequestKey(runtime.deps, req, calls)));
  return notingCaller(req, countedDashboardContext(runtime, req, requestId, setHeader, calls));
}
