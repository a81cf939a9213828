import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { admitApiKey } from '../services/api-keys/admission';
import { parseBearer } from './bearer';
import { notingCaller } from './request-log';
import { requestOrigin } from './request-origin';
import type { Context } from '../trpc/context';

/** A request header by lowercase name; the first value when it was sent twice. */
export function nodeHeader(req: IncomingMessage): Context['header'] {
  return (name) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
}

/**
 * The context of a request made with an API key, whichever door it came through (REST, a plain
 * route or `/api/trpc`), so the key's admission, rate limit and reach are the same on all of them.
 * `calls`: the places the request takes in the rate limit (a tRPC batch's size).
 */
export function apiKeyContext(deps: Deps, header: Context['header'], requestId: string, setHeader: Context['setHeader'], calls = 1): Context {
  let admission: ReturnType<typeof admitApiKey> | undefined;
  return {
    deps,
    requestId,
    channel: 'api',
    authenticate: () => {
      const secret = parseBearer(header('authorization'));
      // Where the request came from rides on the principal, for the audit log of what it changes.
      admission ??= secret
        ? admitApiKey(deps, secret, calls).then((admitted) => admitted && { ...admitted, principal: { ...admitted.principal, origin: requestOrigin(header) } })
        : Promise.resolve(null);
      return admission;
    },
    setHeader,
    header,
  };
}

/** The API-key context of a REST request, whose headers go straight onto the response. */
export function apiContext(deps: Deps, req: IncomingMessage, res: ServerResponse, requestId: string): Context {
  return notingCaller(req, apiKeyContext(deps, nodeHeader(req), requestId, (name, value) => res.setHeader(name, value)));
}
