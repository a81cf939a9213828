import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '../metrics/metrics';
import { whenDone } from './when-done';

const ROUTE = Symbol('eumail.route');
type WithRoute = IncomingMessage & { [ROUTE]?: string };

/** The REST handler names the operation's path template once it has matched one. */
export function noteRoute(req: IncomingMessage, template: string): void {
  (req as WithRoute)[ROUTE] = template;
}

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * A route label that never holds an id, a token or an address: the REST operation's template, else
 * the area of the service the path belongs to. Unknown REST paths share one label, so a scan of
 * random paths cannot grow the series without bound.
 */
function areaOf(path: string): string {
  if (startsWithSegment(path, '/api/trpc')) return 'trpc';
  if (startsWithSegment(path, '/api/auth')) return 'auth';
  if (startsWithSegment(path, '/api/inngest')) return 'inngest';
  if (startsWithSegment(path, '/api')) return 'api_unmatched';
  if (startsWithSegment(path, '/t')) return 'tracking';
  if (startsWithSegment(path, '/unsubscribe')) return 'unsubscribe';
  if (startsWithSegment(path, '/f')) return 'form';
  if (path === '/docs/openapi.json' || path === '/metrics' || path === '/admin/command') return path;
  return 'dashboard';
}

/** Counts the request under its route and status, with its latency, once its answer is out. */
export function measureWhenDone(metrics: Metrics, req: IncomingMessage, res: ServerResponse, path: string): void {
  whenDone(res, ({ status, elapsedMs }) => {
    const route = (req as WithRoute)[ROUTE] ?? areaOf(path);
    metrics.requestDone({ method: req.method ?? 'GET', route, status }, elapsedMs / 1000);
  });
}
