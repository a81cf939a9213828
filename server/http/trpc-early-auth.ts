import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { Runtime } from '../runtime';
import type { AppRouter } from '../routers';
import type { Meta } from '../trpc/init';
import { admitRequestKey } from './api-context';
import { sendJson } from './respond';
import { admitRequestSession } from './trpc-context';
import { calledProcedures, MAX_BATCH_CALLS } from './trpc';

// better-auth's session cookie, with the prefix it takes over https.
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/**
 * `/api/trpc`'s early refusal, before tRPC reads a body: a call that carries a body, to
 * procedures that need a caller, with an API key that is not admitted (missing, malformed,
 * unknown, revoked), a session cookie that names no session, or neither, is answered 401 at once
 * and the connection closed. The admission is the request's one (admitRequestKey,
 * admitRequestSession): the procedure reuses it, so the caller is looked up and counted once.
 */
export function createTrpcEarlyAuth(runtime: Pick<Runtime, 'deps' | 'auth'>, router: AppRouter) {
  const { deps } = runtime;
  const publicProcedures = new Set(
    Object.entries(router._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>)
      .filter(([, procedure]) => procedure._def.meta?.openapi?.protect === false)
      .map(([name]) => name),
  );

  /** True when it answered: the tRPC handler is then not called. */
  return async function refusedBeforeBody(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (req.method !== 'POST') return false;
    const batch = new URL(req.url ?? '/', 'http://x').searchParams.get('batch') === '1';
    // Read as tRPC reads them (percent-decoded: `%2C` separates calls too), so the count is the batch's.
    const procedures = calledProcedures(path.replace(/^\/+|\/+$/g, ''), new URLSearchParams(batch ? 'batch=1' : ''));
    if (procedures.every((name) => publicProcedures.has(name))) return false;
    // An over-long batch is tRPC's to refuse (400), before anything is counted.
    if (batch && procedures.length > MAX_BATCH_CALLS) return false;
    // Each batched call takes its place, as the procedure's own admission would count them.
    const calls = batch ? procedures.length : 1;
    if (req.headers.authorization === undefined) {
      if (SESSION_COOKIE.test(req.headers.cookie ?? '') && (await admitRequestSession(runtime, req, calls))) return false;
    } else if (await admitRequestKey(deps, req, calls)) return false;
    const message = req.headers.authorization === undefined ? 'Sign in or send an API key' : 'Missing, malformed or revoked API key';
    const error = (name: string) => ({
      error: {
        message,
        code: TRPC_ERROR_CODES_BY_KEY.UNAUTHORIZED,
        data: { code: 'UNAUTHORIZED', httpStatus: 401, path: name, envelope: { status: 401, code: 'UNAUTHORIZED', error: message } },
      },
    });
    // The body is never read: the connection closes after the answer (lingering: server/http/linger.ts).
    sendJson(res, 401, batch ? procedures.map(error) : error(procedures[0]!), { Connection: 'close' });
    return true;
  };
}
