import type { IncomingMessage } from 'node:http';

/**
 * The header that carries the server's request id to Next's route handlers. The listener
 * overwrites whatever a client sent under this name, so a handler reading it gets the id the
 * server put on the response, never one the client chose.
 */
const REQUEST_ID_HEADER = 'x-request-id';

export function stampRequestId(req: IncomingMessage, requestId: string): void {
  req.headers[REQUEST_ID_HEADER] = requestId;
}

/** In a Next route handler: the id the listener stamped (the fallback only outside the server, e.g. `next dev` alone). */
export function requestIdOf(headers: Headers): string {
  return headers.get(REQUEST_ID_HEADER) ?? crypto.randomUUID();
}
