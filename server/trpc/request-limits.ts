import type { AccessMeta } from './init';

/**
 * Bounds on what a request may send, which operations declare and the edge enforces
 * (docs/security.md, "Abuse: the HTTP edge"). The longest URL the API itself needs is a path with a
 * URL-encoded address (`/api/recipients/{email}/data`, under 1 KiB) or a template preview's
 * `variables`; 8 KiB is what common servers and proxies take (nginx's and Apache's request-line default).
 */
export const MAX_REQUEST_TARGET_BYTES = 8 * 1024;

/**
 * The largest request body each kind of operation takes (docs/api-conventions.md, "Request
 * bodies"); the rest of a larger one is never read (413).
 */
export const BODY_LIMITS = {
  /** `POST /emails` and its preflight: 10 MiB of attachments in base64 (13.4 MiB) beside 5 MiB of html and text that JSON escaping may double. */
  send: 24 * 1024 * 1024,
  /** Templates and broadcasts: 5 MiB of html and text, JSON escaping doubling it, and the rest of the fields. */
  content: 12 * 1024 * 1024,
  /** Every other operation: names, addresses, URLs, ids, a date; the longest (a webhook's 4,096-character URL with its events) is under 8 KiB. */
  small: 64 * 1024,
} as const;

/**
 * An operation's body bound: its own (sends, content), BODY_LIMIT_BYTES for the bulk ones (a
 * batch of 100 emails, 1,000 contacts or addresses), and for the rest the smaller of 64 KiB and
 * BODY_LIMIT_BYTES.
 */
export function bodyLimitOf(entry: { meta?: AccessMeta }, configured: number): number {
  if (entry.meta?.bodyLimitBytes) return entry.meta.bodyLimitBytes;
  if (entry.meta?.bulkBody) return configured;
  return Math.min(BODY_LIMITS.small, configured);
}
