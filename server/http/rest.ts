import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { Deps } from '../deps';
import { clientErrorOf } from '../errors';
import type { AppRouter } from '../routers';
import { callRestProcedure } from './rest-procedure';
import { readJsonDocument } from './body';
import { authorizeBeforeBody } from './early-auth';
import { checkJsonBody, parseQuery } from './hostile-input';
import { decodePathParams } from '../trpc/path-params';
import { replyFor, resendQueryOf } from './dialect/reply';
import { apiContext } from './api-context';
import { bodyLimitOf } from '../trpc/request-limits';
import { buildRouteTable, matchRoute, type PlainRoute, type RouteEntry } from './routes';
import { noteRoute } from './request-metrics';

export type RestRequest = IncomingMessage & { requestId?: string };

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/** An operation anyone may call (health): no key, no query. */
const isPublic = (entry: RouteEntry) => entry.meta?.openapi?.protect === false;

/**
 * The REST entry for every spec path under the base URL: request id, routing (404/405), body
 * size and JSON parsing, then the operation's procedure (server/http/rest-procedure.ts) or a plain
 * route, with errors in {error, code}.
 */
export function createRestHandler(deps: Deps, router: AppRouter, plainRoutes: PlainRoute[] = []) {
  // Found, unwrapped and coerced once here rather than by trpc-to-openapi's adapter on every
  // request (its per-request URL, lookup, schema walk and fetch Request cost more than routing).
  const table = buildRouteTable(router, plainRoutes);
  // trpc-to-openapi's adapter checked the router this way when it was made; the check stays.
  if (process.env.NODE_ENV !== 'production') generateOpenApiDocument(router, { title: '', version: '', baseUrl: '' });
  const logFailure = (requestId: string, error: unknown) => deps.log.error({ requestId, err: error }, 'request failed');

  return async function handleRest(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const request = req as RestRequest;
    const requestId = request.requestId ?? randomUUID();
    request.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    // Every answer goes out through it: the spec's shape, or the key's dialect's (server/http/dialect/).
    const reply = replyFor(deps, req, res);
    try {
      const method = req.method ?? 'GET';
      const match = matchRoute(table, method, path);
      if (match.kind === 'none') return await reply.error('NOT_FOUND', `No route for ${method} ${path}`);
      if (match.kind === 'method') {
        return await reply.error('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, { Allow: match.allow.join(', ') });
      }
      noteRoute(req, match.entry.path);
      // Checked for every route, so a procedure never meets a malformed escape either.
      const params = decodePathParams(match.params);
      reply.route = { path: match.entry.path, method, params };
      reply.keyless = isPublic(match.entry);
      const operation = match.entry.procedure;
      let body: unknown = undefined;
      const originalUrl = req.url ?? '/';
      // Health takes no query and must answer whatever junk a probe or a scanner appends to it.
      const queryAt = isPublic(match.entry) ? -1 : originalUrl.indexOf('?');
      // Checked, and prototype-free: `__proto__`, `constructor` or `toString` are plain unknown keys.
      const query = parseQuery(new URLSearchParams(queryAt === -1 ? '' : originalUrl.slice(queryAt + 1)));
      if (BODY_METHODS.has(method)) {
        if (!isPublic(match.entry)) await authorizeBeforeBody(deps, req, res, requestId, match.entry.meta);
        if (!match.entry.plain?.streamsBody) {
          const parsed = await readJsonDocument(req, bodyLimitOf(match.entry, deps.config.bodyLimitBytes));
          checkJsonBody(parsed.value, { escapes: parsed.escapes });
          body = parsed.value;
        }
      }
      if (match.entry.plain) {
        await match.entry.plain.handle({ req, res, ctx: apiContext(deps, req, res, requestId), deps, requestId, body, params, json: (status, answer) => reply.json(status, answer) });
        return;
      }
      if (!operation) return await reply.error('NOT_FOUND', 'Not found');
      if (BODY_METHODS.has(method)) {
        const arrayField = match.entry.meta?.arrayBodyField;
        if (arrayField && Array.isArray(body)) body = { [arrayField]: body };
        // The body is spread into the input (as trpc-to-openapi does), so anything but an object would be mangled.
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return await reply.error('VALIDATION_ERROR', 'The request body must be a JSON object');
        }
        // The path is laid over the body: a body `id` would vanish unseen, not be refused. The same
        // value again is the same request (Resend's SDK repeats a topic's id in its PATCH body).
        const fields = body as Record<string, unknown>;
        for (const name of Object.keys(params)) if (Object.hasOwn(fields, name) && fields[name] === params[name]) delete fields[name];
        const shadowed = Object.keys(params).find((name) => Object.hasOwn(fields, name));
        if (shadowed) return await reply.error('VALIDATION_ERROR', `${shadowed}: is given in the path with another value; the body may not carry it`);
      }
      const source = BODY_METHODS.has(method) ? { body: body as Record<string, unknown> } : { query: await resendQueryOf(reply, query, operation.input.fields) };
      await callRestProcedure(deps, req, res, reply, requestId, operation, match.entry.meta, source, match.params, logFailure);
    } catch (error) {
      if (res.headersSent) return;
      const known = clientErrorOf(error);
      if (known) return await reply.error(known.appCode, known.message, known.headers);
      logFailure(requestId, error);
      return await reply.error('INTERNAL_ERROR', 'Internal server error');
    }
  };
}
