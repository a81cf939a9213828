import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from 'better-auth/node';
import type { Runtime } from '../runtime';
import { AppError } from '../errors';
import { readJsonBody } from './body';
import { sendError } from './respond';

/** better-auth's email sign-in: its body is read here, within a bound, before better-auth sees it. */
export const SIGN_IN_PATH = '/api/auth/sign-in/email';

/** An email and a password fit many times over; better-auth answers anything else itself. */
const SIGN_IN_BODY_LIMIT = 16 * 1024;

const CANONICAL_BASE = 'http://canonical.invalid';

/**
 * Whether an /api/auth path is spelled the one way better-auth's router reads it: no dot
 * segments (plain or percent-encoded), no encoded slash or backslash, no backslash, no empty
 * segment, no trailing slash, no fragment. better-auth resolves what WHATWG URL resolves
 * (`x/../sign-in/email` is sign-in); the throttle counts by the route it resolved anyway
 * (server/auth/better-auth.ts), and refusing other spellings here keeps logs, metrics and the
 * body bound below on the path that is really served.
 */
export function isCanonicalAuthPath(path: string): boolean {
  if (/%(2e|2f|5c)|[\\#]|\/\/|\/$/i.test(path)) return false;
  try {
    return new URL(path, CANONICAL_BASE).pathname === path;
  } catch {
    return false;
  }
}

/**
 * better-auth builds the URL it routes by from Host and X-Forwarded-Proto (better-call's node
 * adapter): a host with a path in it would move the request to another route than the one the
 * listener saw.
 */
function hasPlainAuthority(req: IncomingMessage): boolean {
  const proto = req.headers['x-forwarded-proto'];
  if (proto !== undefined && proto !== 'http' && proto !== 'https') return false;
  const host = req.headers.host;
  return host === undefined || /^[A-Za-z0-9.\-:[\]]+$/.test(host);
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The body is sent again, serialized anew: its length and framing are the new Request's.
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.set('content-type', 'application/json');
  return headers;
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
  res.statusCode = response.status;
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** The paths better-auth routes (its endpoints' and its plugins'), `:param` segments matching one segment. */
function servedAuthPaths(auth: Runtime['auth']): RegExp[] {
  const paths = Object.values(auth.api as Record<string, { path?: unknown }>)
    .map((endpoint) => endpoint.path)
    .filter((path): path is string => typeof path === 'string');
  return paths.map((path) => new RegExp(`^/api/auth${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`));
}

/**
 * Everything under /api/auth: a path or authority spelled any other way than the canonical one
 * is a 400 before better-auth; POST sign-in has its body read within a bound and handed to
 * better-auth as a fetch Request. Counting attempts (per account and per address) is
 * better-auth's before hook's, by the route it resolved.
 */
export function createAuthHandler(runtime: Runtime) {
  const { auth } = runtime;
  const others = toNodeHandler(auth);
  const served = servedAuthPaths(auth);
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (!isCanonicalAuthPath(path) || !hasPlainAuthority(req)) {
      return sendError(res, 'VALIDATION_ERROR', 'The path or host of this request is not spelled the canonical way');
    }
    // better-auth answers a route it does not have with an empty 404; ours says so in the API's shape.
    if (!served.some((route) => route.test(path))) return sendError(res, 'NOT_FOUND', 'Not found');
    if (path !== SIGN_IN_PATH || req.method !== 'POST') return others(req, res);
    let body: unknown;
    try {
      body = await readJsonBody(req, SIGN_IN_BODY_LIMIT);
    } catch (error) {
      if (error instanceof AppError) return sendError(res, error.appCode, error.message, error.headers);
      throw error;
    }
    const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const request = new Request(`${protocol}://${req.headers.host ?? 'localhost'}${req.url ?? SIGN_IN_PATH}`, {
      method: 'POST',
      headers: webHeaders(req),
      body: JSON.stringify(body),
    });
    await writeResponse(res, await auth.handler(request));
  };
}
