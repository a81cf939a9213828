import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/*
 * The service's own pages outside the dashboard (unsubscribe, address confirmation): each one
 * self-contained (one inline style sheet, no script, no image, nothing fetched from elsewhere),
 * every value escaped, the form posting back to the URL the page was opened at.
 */

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const BASE_STYLE = `
:root{color-scheme:light dark}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1b1d21}
main{max-width:30rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 1rem}
p{margin:0 0 1rem}
.address{font-weight:600;word-break:break-all}
form{margin:1.5rem 0 0}
@media (prefers-color-scheme:dark){body{background:#15171a;color:#e8eaed}main{background:#202327;box-shadow:none}}
`;

/** A family of pages sharing one style sheet: its layout and the policy that allows exactly that sheet. */
export function publicPages(extraStyle: string) {
  const style = BASE_STYLE + extraStyle;
  // The only style the page may apply is its own sheet, by hash; no script, nothing from elsewhere, no framing.
  const csp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
  const layout = (title: string, body: string): string =>
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow">' +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${style}</style></head>` +
    `<body><main>${body}</main></body></html>`;
  return { csp, layout };
}

// The URL holds a token: nothing is cached or sent on as a referrer.
const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

/** Answers `body` with the common headers; a HEAD gets the headers alone. */
export function sendPublic(res: ServerResponse, status: number, body: string, headers: Record<string, string>, head = false): void {
  const bytes = Buffer.from(body);
  res.statusCode = status;
  for (const [name, value] of Object.entries({ ...COMMON_HEADERS, ...headers })) res.setHeader(name, value);
  res.setHeader('Content-Length', String(bytes.length));
  res.end(head ? undefined : bytes);
}

/** An HTML page of a family (`publicPages`), under that family's policy. */
export const sendPage = (res: ServerResponse, csp: string, status: number, html: string, head = false, extra: Record<string, string> = {}): void =>
  sendPublic(res, status, html, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, ...extra }, head);
