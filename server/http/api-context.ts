import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { admitApiKey, type Admission } from '../services/api-keys/admission';
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

function admitBearer(deps: Deps, header: Context['header'], calls = 1): Promise<Admission | null> {
  const secret = parseBearer(header('authorization'));
  // Where the request came from rides on the principal, for the audit log of what it changes.
  return secret
    ? admitApiKey(deps, secret, calls).then((admitted) => admitted && { ...admitted, principal: { ...admitted.principal, origin: requestOrigin(header) } })
    : Promise.resolve(null);
}

const ADMISSION = Symbol('eumail.api-key-admission');
type WithAdmission = IncomingMessage & { [ADMISSION]?: Promise<Admission | null> };

/**
 * The API key of a request, admitted once however often it is asked for: the edge asks before it
 * reads a body (server/http/early-auth.ts), the procedure again; one lookup, one count against
 * the rate limit. `calls`: the places the request takes in the rate limit (a tRPC batch's size),
 * the same whoever asks first.
 */
export function admitRequestKey(deps: Deps, req: IncomingMessage, calls = 1): Promise<Admission | null> {
  const request = req as WithAdmission;
  return (request[ADMISSION] ??= admitBearer(deps, nodeHeader(req), calls));
}

/** The request's admission if one was asked for (the answer's dialect is the admitted key's), else undefined. */
export function admissionAskedFor(req: IncomingMessage): Promise<Admission | null> | undefined {
  return (req as WithAdmission)[ADMISSION];
}

/**
 * The context of a request made with an API key, whichever door it came through (REST, a plain
 * route or `/api/trpc`), so the key's admission, rate limit and reach are the same on all of them.
 * `admit` is the request's own admission where there is a request (admitRequestKey).
 */
export function apiKeyContext(
  deps: Deps,
  header: Context['header'],
  requestId: string,
  setHeader: Context['setHeader'],
  admit: () => Promise<Admission | null> = () => admitBearer(deps, header),
): Context {
  let admission: Promise<Admission | null> | undefined;
  return {
    deps,
    requestId,
    channel: 'api',
    authenticate: () => (admission ??= admit()),
    setHeader,
    header,
  };
}

/** The API-key context of a REST request, whose headers go straight onto the response. */
export function apiContext(deps: Deps, req: IncomingMessage, res: ServerResponse, requestId: string): Context {
  return notingCaller(req, apiKeyContext(deps, nodeHeader(req), requestId, (name, value) => res.setHeader(name, value), () => admitRequestKey(deps, req)));
}
