import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Runtime } from '../runtime';
import { AppError } from '../errors';
import { checkReadiness } from '../services/health/readiness';
import { handleMetrics } from './metrics-endpoint';
import { measureWhenDone } from './request-metrics';
import { SERVICE_POLICY, securityHeaderOptions, setSecurityHeaders } from './security-headers';
import { sendError, sendJson } from './respond';

/**
 * For a process without the web role (smtp, worker): on PORT, only what an operator's
 * supervisor and Prometheus ask of every process, its health and its metrics.
 */
export function createOpsServer(runtime: Runtime): http.Server {
  const deps = runtime.deps;
  const security = securityHeaderOptions(runtime.config);
  return http.createServer((req: IncomingMessage, res: ServerResponse) => {
    setSecurityHeaders(res, security);
    res.setHeader('Content-Security-Policy', SERVICE_POLICY);
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    measureWhenDone(deps.metrics, req, res, path);
    const answer = async () => {
      if (path === '/metrics') return handleMetrics(req, res, deps);
      if (req.method !== 'GET') return sendError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}`, { Allow: 'GET' });
      if (path === '/api/health') return sendJson(res, 200, { status: 'ok' });
      if (path === '/api/health/ready') return sendJson(res, 200, await checkReadiness(deps));
      return sendError(res, 'NOT_FOUND', `This process (ROLES=${deps.config.roles.join(',')}) serves only /api/health, /api/health/ready and /metrics`);
    };
    answer().catch((error: unknown) => {
      if (error instanceof AppError) return sendError(res, error.appCode, error.message, error.headers);
      deps.log.error({ err: error }, 'ops request failed');
      if (!res.headersSent) sendError(res, 'INTERNAL_ERROR', 'Internal server error');
    });
  });
}
