import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime } from '../runtime';
import { AppError } from '../errors';
import { beginSignIn } from '../services/sign-in/throttle';
import { readJsonBody } from './body';
import { clientAddress } from './client-address';
import { sendError } from './respond';

/** better-auth's email sign-in, the one path the throttle stands in front of. */
export const SIGN_IN_PATH = '/api/auth/sign-in/email';

/** An email and a password fit many times over; better-auth answers anything else itself. */
const SIGN_IN_BODY_LIMIT = 16 * 1024;

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

/**
 * POST /api/auth/sign-in/email: the attempt is counted per address and per account before
 * better-auth checks the password (429 RATE_LIMITED with Retry-After once either is full); a
 * successful sign-in gives its places back. The body is read here and handed to better-auth as a
 * fetch Request, whose answer (status, session cookie) goes out unchanged.
 */
export function createSignInHandler(runtime: Runtime) {
  const { deps, auth, config } = runtime;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body: unknown;
    try {
      body = await readJsonBody(req, SIGN_IN_BODY_LIMIT);
    } catch (error) {
      if (error instanceof AppError) return sendError(res, error.appCode, error.message, error.headers);
      throw error;
    }
    const email = (body as { email?: unknown } | null)?.email;
    const ticket = typeof email === 'string' ? await beginSignIn(deps, { address: clientAddress(req, config.trustedProxyCidrs), email }) : null;
    if (ticket && !ticket.allowed) {
      const seconds = Math.max(1, Math.ceil(ticket.retryAfterMs / 1000));
      const minutes = Math.ceil(seconds / 60);
      return sendError(res, 'RATE_LIMITED', `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, { 'Retry-After': String(seconds) });
    }
    const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const request = new Request(`${protocol}://${req.headers.host ?? 'localhost'}${req.url ?? SIGN_IN_PATH}`, {
      method: 'POST',
      headers: webHeaders(req),
      body: JSON.stringify(body),
    });
    const response = await auth.handler(request);
    if (ticket && response.ok) await ticket.succeeded();
    await writeResponse(res, response);
  };
}
