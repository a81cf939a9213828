import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { Deps } from '../deps';
import { clientErrorOf, type ErrorCode } from '../errors';
import type { AppRouter } from '../routers';
import { toEnvelope } from '../trpc/envelope';
import { apiContext } from './api-context';
import { readJsonBody } from './body';
import { authorizeBeforeBody } from './early-auth';
import { checkJsonBody, parseQuery } from './hostile-input';
import { decodePathParams } from './path-params';
import { errorBody } from './error-body';
import { sendError } from './respond';
import { bodyLimitOf } from './body-limits';
import { buildRouteTable, matchRoute, type PlainRoute, type RouteEntry } from './routes';
import { noteRoute } from './request-metrics';

export type RestRequest = IncomingMessage & { body?: unknown; requestId?: string; query?: Record<string, string[]> };

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/** An operation anyone may call (health): no key, no query. */
const isPublic = (entry: RouteEntry) => entry.meta?.openapi?.protect === false;

/** Rewrites whatever trpc-to-openapi answered for an error into the spec's {error, code}. */
function rewriteErrorBodies(res: ServerResponse, requestId: string): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    if (res.statusCode >= 400 && typeof chunk === 'string') {
      let code: ErrorCode = 'INTERNAL_ERROR';
      let error = 'Internal server error';
      try {
        const parsed = JSON.parse(chunk) as { data?: { envelope?: { code: ErrorCode; error: string } } };
        if (parsed.data?.envelope) ({ code, error } = parsed.data.envelope);
      } catch {
        // keep the generic 500 body
      }
      return end(JSON.stringify(errorBody(code, error, requestId)));
    }
    return end(chunk);
  }) as ServerResponse['end'];
}

/**
 * The REST entry for every spec path under the base URL: request id, routing (404/405), body
 * size and JSON parsing, then trpc-to-openapi or a plain route, with errors in {error, code}.
 */
export function createRestHandler(deps: Deps, router: AppRouter, plainRoutes: PlainRoute[] = []) {
  const table = buildRouteTable(router, plainRoutes);
  const successStatus = new Map<string, number>();
  for (const [name, procedure] of Object.entries(router._def.procedures) as unknown as Array<[string, { _def: { meta?: { successStatus?: number } } }]>) {
    if (procedure._def.meta?.successStatus) successStatus.set(name, procedure._def.meta.successStatus);
  }
  const logFailure = (requestId: string, error: unknown) => deps.log.error({ requestId, err: error }, 'request failed');

  // The node adapter, not the standalone one: that one turns the request into a fetch Request and
  // would read the body stream again after we have read and size-checked it.
  const openApiHandler = createOpenApiNodeHttpHandler<AppRouter, IncomingMessage, ServerResponse>({
    router,
    createContext: ({ req, res }) => apiContext(deps, req, res, (req as RestRequest).requestId ?? randomUUID()),
    responseMeta: ({ errors, paths }) => {
      const error = errors[0] as TRPCError | undefined;
      if (error) {
        const envelope = toEnvelope(error);
        return { status: envelope.status, headers: envelope.headers ?? {} };
      }
      return { status: successStatus.get(paths?.[0] ?? '') ?? 200 };
    },
    onError: ({ error, req }) => {
      if (toEnvelope(error).status >= 500) logFailure((req as RestRequest).requestId ?? '-', error.cause ?? error);
    },
  });

  return async function handleRest(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const request = req as RestRequest;
    const requestId = request.requestId ?? randomUUID();
    request.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    try {
      const method = req.method ?? 'GET';
      const match = matchRoute(table, method, path);
      if (match.kind === 'none') return sendError(res, 'NOT_FOUND', `No route for ${method} ${path}`);
      if (match.kind === 'method') {
        return sendError(res, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, { Allow: match.allow.join(', ') });
      }
      noteRoute(req, match.entry.path);
      // Checked for every route, so trpc-to-openapi never meets a malformed escape either.
      const params = decodePathParams(match.params);
      let body: unknown = undefined;
      const originalUrl = req.url ?? '/';
      // Health takes no query and must answer whatever junk a probe or a scanner appends to it.
      const queryAt = isPublic(match.entry) ? -1 : originalUrl.indexOf('?');
      // trpc-to-openapi reads req.query when it is set: the checked, prototype-free one.
      request.query = parseQuery(new URLSearchParams(queryAt === -1 ? '' : originalUrl.slice(queryAt + 1)));
      if (BODY_METHODS.has(method)) {
        if (!isPublic(match.entry)) await authorizeBeforeBody(deps, req, res, requestId, match.entry.meta);
        body = await readJsonBody(req, bodyLimitOf(match.entry, deps.config.bodyLimitBytes));
        checkJsonBody(body);
      }
      if (match.entry.plain) {
        await match.entry.plain.handle({ req, res, deps, requestId, body, params });
        return;
      }
      if (BODY_METHODS.has(method)) {
        // trpc-to-openapi spreads the body into the input, so anything but an object would be mangled.
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return sendError(res, 'VALIDATION_ERROR', 'The request body must be a JSON object');
        }
        // trpc-to-openapi lays the path over the body: a body `id` would vanish unseen, not be refused.
        const shadowed = Object.keys(params).find((name) => Object.hasOwn(body as object, name));
        if (shadowed) return sendError(res, 'VALIDATION_ERROR', `${shadowed}: is given in the path; the body may not carry it`);
        request.body = body;
        req.headers['content-type'] = 'application/json';
      }
      rewriteErrorBodies(res, requestId);
      req.url = path + (queryAt === -1 ? '' : originalUrl.slice(queryAt));
      await openApiHandler(req, res);
    } catch (error) {
      if (res.headersSent) return;
      const known = clientErrorOf(error);
      if (known) return sendError(res, known.appCode, known.message, known.headers);
      logFailure(requestId, error);
      return sendError(res, 'INTERNAL_ERROR', 'Internal server error');
    }
  };
}
