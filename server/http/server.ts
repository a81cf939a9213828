import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { toNodeHandler } from 'better-auth/node';
import { withQueryBound } from '@/db/deadline';
import { appRouter } from '../routers';
import { PLAIN_ROUTES } from '../routers/plain';
import { buildOpenApiDocument } from '../openapi/document';
import type { Runtime } from '../runtime';
import { handleAdmin } from './admin';
import type { Log } from '../log';
import { errorBody } from './error-body';
import { stampRequestId } from './request-id';
import { logWhenDone } from './request-log';
import { measureWhenDone } from './request-metrics';
import { handleMetrics } from './metrics-endpoint';
import { applyDashboardPolicy, SERVICE_POLICY, securityHeaderOptions, setSecurityHeaders } from './security-headers';
import { stampClientAddress } from './request-origin';
import { createRestHandler, type RestRequest } from './rest';
import { sendError, sendJson } from './respond';
import { createSignInHandler, SIGN_IN_PATH } from './sign-in';
import { handleTracking } from './tracking';
import { handleUnsubscribe } from './unsubscribe';
import { handleConfirmAddress } from './confirm-address';
import { CONFIRM_ADDRESS_PATH } from '../services/organizations/owner-confirmation';
import { createTrpcHandler, TRPC_PATH } from './trpc';

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Paths under /api that belong to Next's route handlers rather than to the REST API. */
const NEXT_API_PREFIXES = ['/api/inngest'];

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The process entry's request listener: REST paths and tRPC go straight to their handlers (Next's
 * per-request cost kept off the hot path), auth to better-auth, everything else to Next.
 */
export function createRequestListener(runtime: Runtime, options: { next?: NextHandler; adminToken?: string }) {
  const rest = createRestHandler(runtime.deps, appRouter, PLAIN_ROUTES);
  const auth = toNodeHandler(runtime.auth);
  const signIn = createSignInHandler(runtime);
  const trpc = createTrpcHandler(runtime, appRouter);
  let openApiJson: string | null = null;
  const openApi = () => (openApiJson ??= JSON.stringify(buildOpenApiDocument(appRouter, PLAIN_ROUTES, { appUrl: runtime.config.appUrl })));
  const security = securityHeaderOptions(runtime.config);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    (req as RestRequest).requestId = requestId;
    stampRequestId(req, requestId);
    stampClientAddress(req, runtime.config.trustedProxyCidrs);
    res.setHeader('X-Request-Id', requestId);
    setSecurityHeaders(res, security);
    // The service's own answers; what goes to Next gets the dashboard's policy instead.
    res.setHeader('Content-Security-Policy', SERVICE_POLICY);
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    // The service's own paths get an access line; Next's pages and assets are the dashboard's business.
    if (startsWithSegment(path, '/api') || startsWithSegment(path, '/t') || startsWithSegment(path, '/unsubscribe') || startsWithSegment(path, CONFIRM_ADDRESS_PATH) || path === '/docs/openapi.json' || path === '/admin/command') {
      logWhenDone(runtime.deps.log, req, res, requestId, path);
    }
    measureWhenDone(runtime.deps.metrics, req, res, path);
    if (path === '/metrics') return handleMetrics(req, res, runtime.deps);
    if (startsWithSegment(path, TRPC_PATH)) return trpc(req, res, path.slice(TRPC_PATH.length), requestId);
    if (startsWithSegment(path, '/api') && !NEXT_API_PREFIXES.some((prefix) => startsWithSegment(path, prefix))) {
      if (startsWithSegment(path, '/api/auth')) return path === SIGN_IN_PATH && req.method === 'POST' ? signIn(req, res) : auth(req, res);
      return rest(req, res, path.slice('/api'.length) || '/');
    }
    if (path === '/docs/openapi.json') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      return sendJson(res, 200, JSON.parse(openApi()));
    }
    if (startsWithSegment(path, '/t')) return handleTracking(req, res, runtime.deps);
    if (startsWithSegment(path, '/unsubscribe')) return handleUnsubscribe(req, res, runtime.deps);
    if (startsWithSegment(path, CONFIRM_ADDRESS_PATH)) return handleConfirmAddress(req, res, runtime.deps);
    if (path === '/admin/command' && options.adminToken) return handleAdmin(req, res, runtime.deps, options.adminToken);
    if (options.next) {
      applyDashboardPolicy(req, res, security);
      return options.next(req, res);
    }
    return sendError(res, 'NOT_FOUND', 'Not found');
  };
}

/**
 * The longest one query of a request may wait for the database. Well under the 5 s a client may
 * wait for a 503 while the database is away; a stopped server refuses at once, this is for one
 * that is frozen or cut off.
 */
const REQUEST_QUERY_BOUND_MS = 4_000;

export function createHttpServer(listener: ReturnType<typeof createRequestListener>, log: Log): http.Server {
  // Node refuses a request line or headers past 16 KiB with a bare 431 our listener never sees;
  // up to this size the API answers itself, in its own shape (two 64 KiB path ids are a 400).
  const server = http.createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    // Stopping: answer what is asked on an open connection, then let it close.
    if (!server.listening) res.setHeader('Connection', 'close');
    withQueryBound(REQUEST_QUERY_BOUND_MS, () => listener(req, res)).catch((error: unknown) => {
      log.error({ requestId: (req as RestRequest).requestId, err: error }, 'unhandled error');
      if (!res.headersSent) sendError(res, 'INTERNAL_ERROR', 'Internal server error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  // Beyond that, or unparsable: still an answer in the API's shape, then the connection closes.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const requestId = randomUUID();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(errorBody('VALIDATION_ERROR', tooLarge ? 'The request line or headers are too large' : 'The request is not valid HTTP', requestId));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
