import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config';

/** What the headers depend on: HTTPS (HSTS, upgrade of insecure requests) and development (React's eval). */
export interface SecurityHeaderOptions {
  https: boolean;
  development: boolean;
}

export const securityHeaderOptions = (config: Pick<Config, 'appUrl' | 'nodeEnv'>): SecurityHeaderOptions => ({
  https: config.appUrl.startsWith('https://'),
  development: config.nodeEnv === 'development',
});

/** Two years, the preload lists' minimum; only ever sent when APP_URL is https (docs/security.md). */
const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * What the service answers itself (JSON, the tracking pixel and redirects, /docs/openapi.json):
 * nothing in it is to run, load or be framed. The unsubscribe page sets its own, narrower policy.
 */
export const SERVICE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** On every response, whoever writes the body: no sniffing, no framing, no full URL in Referer, HTTPS only when served on it. */
export function setSecurityHeaders(res: ServerResponse, options: SecurityHeaderOptions): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (options.https) res.setHeader('Strict-Transport-Security', HSTS);
}

/**
 * The dashboard's policy (Next's pages, /docs). Scripts: only those carrying this response's
 * nonce, and what they load ('strict-dynamic': Next's chunks, Scalar's lazy bundle); React needs
 * eval in development only. Styles may be inline (React's style attributes, Radix and Scalar
 * insert <style> elements; a nonce would switch 'unsafe-inline' off). Images, fonts, styles and
 * media may come from elsewhere because the email preview (an iframe with srcdoc) inherits this
 * policy: its own, stricter meta policy is what keeps remote content off until it is asked for.
 */
export function dashboardPolicy(nonce: string, options: SecurityHeaderOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline' https: http:",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data: https: http:",
    "media-src 'self' https: http:",
    "connect-src 'self'",
    // The preview is a srcdoc document (not fetched, so not a frame-src matter); nothing else is framed.
    "frame-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const CSP_REQUEST_HEADER = 'content-security-policy';

/**
 * Before Next renders: a fresh nonce, the policy on the response, and the same policy on the
 * request, where Next reads the nonce from and puts it on every script it writes (pages are
 * rendered per request for it: app/layout.tsx). Whatever a client sent under that name is replaced.
 */
export function applyDashboardPolicy(req: IncomingMessage, res: ServerResponse, options: SecurityHeaderOptions): string {
  const nonce = randomBytes(16).toString('base64');
  const policy = dashboardPolicy(nonce, options);
  req.headers[CSP_REQUEST_HEADER] = policy;
  delete req.headers['content-security-policy-report-only'];
  res.setHeader('Content-Security-Policy', policy);
  return nonce;
}
