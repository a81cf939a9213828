import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { withQueryBound } from '@/db/deadline';
import { appRouter } from '../routers';
import { PLAIN_ROUTES } from '../routers/plain';
import { buildOpenApiDocument } from '../openapi/document';
import type { Runtime } from '../runtime';
import { handleAdmin } from './admin';
import type { Log } from '../log';
import { DEFAULT_EDGE_LIMITS, type Config } from '../config';
import { capConnectionsPerAddress } from './connection-cap';
import { isLingering, lingerOnClose } from './linger';
import { refuseOnSocket } from './raw-refusal';
import { isRequestLineOverflow, MAX_HEAD_BYTES, MAX_REQUEST_TARGET_BYTES } from './request-bounds';
import { stampRequestId } from './request-id';
import { logWhenDone } from './request-log';
import { measureWhenDone } from './request-metrics';
import { handleMetrics } from './metrics-endpoint';
import { applyDashboardPolicy, SERVICE_POLICY, securityHeaderOptions, setSecurityHeaders } from './security-headers';
import { stampClientAddress } from './request-origin';
import { createRestHandler, type RestRequest } from './rest';
import { sendError, sendJson } from './respond';
import { createAuthHandler } from './sign-in';
import { handleTracking } from './tracking';
import { handleUnsubscribe } from './unsubscribe';
import { handleConfirmAddress } from './confirm-address';
import { handleConfirmSubscription } from './confirm-subscription';
import { CONFIRM_SUBSCRIPTION_PATH } from '../services/double-opt-in';
import { FORM_PATH, handleForm } from './forms';
import { handleStripeWebhook, STRIPE_WEBHOOK_PATH } from './stripe-webhook';
import { createPublicEntryLimits, type PublicEntryLimits } from './public-entry-limit';
import { CONFIRM_ADDRESS_PATH } from '../services/organizations/owner-confirmation';
import { createTrpcHandler, TRPC_PATH } from './trpc';
import { createTrpcEarlyAuth } from './trpc-early-auth';

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Paths under /api that belong to Next's route handlers rather than to the REST API. */
const NEXT_API_PREFIXES = ['/api/inngest'];

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The process entry's request listener: REST paths and tRPC go straight to their handlers (Next's
 * per-request cost kept off the hot path), auth to better-auth, everything else to Next.
 */
export function createRequestListener(runtime: Runtime, options: { next?: NextHandler; adminToken?: string; entryLimits?: PublicEntryLimits }) {
  const rest = createRestHandler(runtime.deps, appRouter, PLAIN_ROUTES);
  const auth = createAuthHandler(runtime);
  const trpc = createTrpcHandler(runtime, appRouter);
  const trpcRefusedBeforeBody = createTrpcEarlyAuth(runtime, appRouter);
  const entryLimits = options.entryLimits ?? createPublicEntryLimits(runtime.deps.clock);
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
    // Before any routing: matching a huge path costs time that grows faster than its length.
    if (url.length > MAX_REQUEST_TARGET_BYTES) {
      res.setHeader('Connection', 'close');
      return sendError(res, 'URI_TOO_LONG', `The request target (path and query) is longer than ${MAX_REQUEST_TARGET_BYTES} bytes`);
    }
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    // The service's own paths get an access line; Next's pages and assets are the dashboard's business.
    if (startsWithSegment(path, '/api') || startsWithSegment(path, '/t') || startsWithSegment(path, '/unsubscribe') || startsWithSegment(path, CONFIRM_ADDRESS_PATH) || startsWithSegment(path, CONFIRM_SUBSCRIPTION_PATH) || startsWithSegment(path, FORM_PATH) || path === STRIPE_WEBHOOK_PATH || path === '/docs/openapi.json' || path === '/admin/command') {
      logWhenDone(runtime.deps.log, req, res, requestId, path);
    }
    measureWhenDone(runtime.deps.metrics, req, res, path);
    if (path === '/metrics') return handleMetrics(req, res, runtime.deps);
    if (startsWithSegment(path, TRPC_PATH)) {
      if (await trpcRefusedBeforeBody(req, res, path.slice(TRPC_PATH.length))) return;
      return trpc(req, res, path.slice(TRPC_PATH.length), requestId);
    }
    if (startsWithSegment(path, '/api') && !NEXT_API_PREFIXES.some((prefix) => startsWithSegment(path, prefix))) {
      if (startsWithSegment(path, '/api/auth')) return auth(req, res, path);
      return rest(req, res, path.slice('/api'.length) || '/');
    }
    if (path === '/docs/openapi.json') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      return sendJson(res, 200, JSON.parse(openApi()));
    }
    if (startsWithSegment(path, '/t')) return handleTracking(req, res, runtime.deps);
    if (startsWithSegment(path, '/unsubscribe')) return handleUnsubscribe(req, res, runtime.deps);
    if (path === STRIPE_WEBHOOK_PATH) return handleStripeWebhook(req, res, runtime.deps, entryLimits.stripeWebhook);
    if (startsWithSegment(path, CONFIRM_ADDRESS_PATH)) return handleConfirmAddress(req, res, runtime.deps, entryLimits.confirmAddress);
    if (startsWithSegment(path, CONFIRM_SUBSCRIPTION_PATH)) return handleConfirmSubscription(req, res, runtime.deps, entryLimits.confirmSubscription);
    if (startsWithSegment(path, FORM_PATH)) return handleForm(req, res, runtime.deps, entryLimits.formSubmit);
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

type EdgeConfig = Pick<Config, 'edge' | 'trustedProxyCidrs'>;

/** Node's timeout checks run this often; its default (30 s) would let a slow client overstay its bound by that much. */
const checkEveryMs = (limits: Config['edge']) => Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));

/** The in-flight answer of a connection, when Node refuses its request midway (a body too slow): Node's own field. */
const inFlightResponse = (socket: Socket) => (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? null;

export function createHttpServer(listener: ReturnType<typeof createRequestListener>, log: Log, config: EdgeConfig = { edge: DEFAULT_EDGE_LIMITS, trustedProxyCidrs: [] }): http.Server {
  const limits = config.edge;
  const server = http.createServer(
    {
      // Request line and headers together; past it Node stops reading and the clientError handler answers.
      maxHeaderSize: MAX_HEAD_BYTES,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkEveryMs(limits),
    },
    (req, res) => {
      // A request after the connection's last answer (pipelined behind a refusal): read, never answered.
      if (isLingering(req.socket)) return;
      // Stopping: answer what is asked on an open connection, then let it close.
      if (!server.listening) res.setHeader('Connection', 'close');
      withQueryBound(REQUEST_QUERY_BOUND_MS, () => listener(req, res)).catch((error: unknown) => {
        log.error({ requestId: (req as RestRequest).requestId, err: error }, 'unhandled error');
        if (!res.headersSent) sendError(res, 'INTERNAL_ERROR', 'Internal server error');
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = 65_000;
  server.on('connection', lingerOnClose);
  capConnectionsPerAddress(server, limits, config.trustedProxyCidrs);
  // Unparsable, too large or too slow: still an answer in the API's shape, then the connection closes.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, duplex) => {
    const socket = duplex as Socket;
    // Node reports every later packet of a refused request again: the answer has gone out.
    if (isLingering(socket)) return;
    const inFlight = inFlightResponse(socket);
    if (inFlight?.headersSent) return socket.destroy();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      const message = 'The request did not arrive in time';
      // A body too slow has a handler waiting for it: the answer goes through its response.
      if (inFlight) {
        inFlight.setHeader('Connection', 'close');
        return sendError(inFlight, 'REQUEST_TIMEOUT', message);
      }
      return refuseOnSocket(socket, 'REQUEST_TIMEOUT', message, { lingerMs: 1_000 });
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      return isRequestLineOverflow(error.rawPacket)
        ? refuseOnSocket(socket, 'URI_TOO_LONG', `The request target (path and query) is longer than ${MAX_REQUEST_TARGET_BYTES} bytes`)
        : refuseOnSocket(socket, 'HEADERS_TOO_LARGE', `The request line and headers are larger than ${MAX_HEAD_BYTES} bytes`);
    }
    return refuseOnSocket(socket, 'VALIDATION_ERROR', 'The request is not valid HTTP');
  });
  return server;
}
