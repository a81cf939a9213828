import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps';
import { isLoopbackAddress } from '../net/ip-policy';
import { parseBearer } from './bearer';
import { sendError } from './respond';

/**
 * Who may read /metrics: with METRICS_TOKEN, whoever presents it; without, a direct request from
 * this machine. A request that came through a proxy carries its forwarding headers: refused
 * without the token even when the proxy itself is on loopback, so a local reverse proxy does not
 * publish the metrics by accident.
 */
export function mayReadMetrics(req: IncomingMessage, token: string | undefined): boolean {
  if (token) {
    const presented = parseBearer(req.headers.authorization);
    if (!presented) return false;
    const a = Buffer.from(presented);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined) return false;
  return isLoopbackAddress(req.socket.remoteAddress);
}

/** GET /metrics in Prometheus's text format. */
export async function handleMetrics(req: IncomingMessage, res: ServerResponse, deps: Pick<Deps, 'config' | 'metrics'>): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on /metrics`, { Allow: 'GET, HEAD' });
  if (!mayReadMetrics(req, deps.config.metricsToken)) {
    return deps.config.metricsToken
      ? sendError(res, 'UNAUTHORIZED', 'Missing or wrong METRICS_TOKEN bearer token')
      : sendError(res, 'FORBIDDEN', '/metrics answers only requests from this machine; set METRICS_TOKEN to read it from elsewhere');
  }
  const { contentType, body } = await deps.metrics.render();
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
