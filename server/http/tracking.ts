import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { clientAddress } from './client-address';
import { recordOpen, resolveClick, type TrackingClient } from '../services/tracking/records';

/** The classic 43-byte GIF89a: 1×1, its one pixel palette entry 0, which the graphic control extension makes transparent. */
export const TRANSPARENT_GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');

const NO_CACHE = 'no-store, no-cache, must-revalidate, max-age=0';

const NOT_FOUND_PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    '<meta name="robots" content="noindex"><title>Link not found</title></head>' +
    '<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222">' +
    '<h1 style="font-size:1.25rem">Link not found</h1><p>This link is not valid, or the message it came from is no longer kept.</p></body></html>',
);

const UNAVAILABLE_PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Try again</title></head>' +
    '<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222">' +
    '<h1 style="font-size:1.25rem">Something went wrong</h1><p>This link could not be opened just now. Please try again in a moment.</p></body></html>',
);

/** `/t/o/<token>` or `/t/c/<token>`; the token alphabet is base64url, anything else is not a tracking path. */
const TRACKING_PATH = /^\/t\/([oc])\/([A-Za-z0-9_-]{1,128})\/?$/;

function send(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string>, head: boolean): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', String(body.length));
  res.end(head ? undefined : body);
}

const page = (res: ServerResponse, status: number, body: Buffer, head: boolean, extra: Record<string, string> = {}) =>
  send(res, status, body, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...extra }, head);

const gif = (res: ServerResponse, head: boolean) =>
  send(res, 200, TRANSPARENT_GIF, { 'Content-Type': 'image/gif', 'Cache-Control': NO_CACHE, Pragma: 'no-cache', Expires: '0' }, head);

/**
 * The value of a Location header for a stored URL: the URL as stored when it is plain printable
 * ASCII, otherwise its WHATWG serialisation (percent-encoded, punycode host), which is the same
 * address as a browser would read it, in the only characters a header may carry.
 */
export function locationFor(url: string): string | null {
  if (/^https?:\/\/[\x21-\x7e]+$/i.test(url)) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function clientOf(req: IncomingMessage, trustedProxies: string[]): TrackingClient {
  const userAgent = req.headers['user-agent'];
  return { userAgent: typeof userAgent === 'string' ? userAgent : null, ip: clientAddress(req, trustedProxies) };
}

/**
 * `GET|HEAD /t/o/<token>`: always the 43-byte transparent GIF, uncacheable, whether or not the
 * token is valid (a bad token is never revealed); a GET records the open.
 * `GET|HEAD /t/c/<token>`: 302 to the URL stored for that token's email and link, never one taken
 * from the request; a bad token gets a small 404 page. A HEAD resolves without recording.
 */
export async function handleTracking(req: IncomingMessage, res: ServerResponse, deps: Pick<Deps, 'db' | 'clock' | 'encryptionKey' | 'config' | 'log' | 'jobs'>): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const match = TRACKING_PATH.exec(queryAt === -1 ? url : url.slice(0, queryAt));
  const method = req.method ?? 'GET';
  if (!match) return page(res, 404, NOT_FOUND_PAGE, method === 'HEAD');
  if (method !== 'GET' && method !== 'HEAD') {
    return send(res, 405, Buffer.from('Method not allowed\n'), { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD' }, false);
  }
  const head = method === 'HEAD';
  const kind = match[1]!;
  const token = match[2]!;

  if (kind === 'o') {
    if (!head) {
      try {
        await recordOpen(deps, token, clientOf(req, deps.config.trustedProxyCidrs));
      } catch (error) {
        deps.log.error({ err: error }, 'recording an open failed');
      }
    }
    return gif(res, head);
  }

  let target: string | null;
  try {
    target = await resolveClick(deps, token, { ...clientOf(req, deps.config.trustedProxyCidrs), record: !head });
  } catch (error) {
    deps.log.error({ err: error }, 'resolving a click failed');
    return page(res, 503, UNAVAILABLE_PAGE, head, { 'Retry-After': '5' });
  }
  const location = target === null ? null : locationFor(target);
  if (location === null) return page(res, 404, NOT_FOUND_PAGE, head);
  return send(res, 302, Buffer.alloc(0), { Location: location, 'Cache-Control': 'no-store' }, head);
}
