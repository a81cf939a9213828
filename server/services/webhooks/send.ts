import { createHmac } from 'node:crypto';
import type { Deps } from '../../deps';
import { OutboundFailedError, OutboundRefusedError, outboundPolicyFromConfig, outboundRequest } from '../../net/outbound';

/** One attempt's limits: the whole request, and how much of the answer is read. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of the answer is kept with the attempt. */
const EXCERPT_CHARS = 2_048;

/** An event as it goes out: its id is the `webhook-id`, the same on every attempt and endpoint. */
export interface OutgoingEvent {
  id: string;
  type: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

export interface AttemptResult {
  succeeded: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** The `webhook-timestamp` signed (wall-clock time: receivers compare it with their own clock). */
  signedAt: Date;
}

/**
 * The body every receiver gets: `{ type, createdAt, data }`, `data.mode` saying whether a live or
 * a test key caused it (events of the organization itself, like domains, are live).
 */
export function eventBody(event: OutgoingEvent): { type: string; createdAt: string; data: Record<string, unknown> } {
  // An email's event carries its mode already: its data goes as it is. A copy with a property after
  // the spread only for the others, as that costs V8 microseconds per object.
  const data = event.data.mode === undefined || event.data.mode === null ? { ...event.data, mode: 'live' } : event.data;
  return { type: event.type, createdAt: event.createdAt.toISOString(), data };
}

export const payloadOf = (event: OutgoingEvent): string => JSON.stringify(eventBody(event));

/**
 * The Standard Webhooks headers of one attempt, signed with each of the endpoint's current secrets
 * that sign this event (mode-secrets.ts): one `v1,<signature>` per secret, space-separated, which
 * every Standard Webhooks library accepts when any one verifies.
 */
export function signedHeaders(secrets: string[], eventId: string, signedAt: Date, body: string): Record<string, string> {
  const timestamp = String(Math.floor(signedAt.getTime() / 1000));
  const signed = `${eventId}.${timestamp}.${body}`;
  return {
    'content-type': 'application/json',
    'user-agent': 'eumail-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(signed, 'utf8').digest('base64')}`).join(' '),
  };
}

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC key of a `whsec_<base64>` secret, as Standard Webhooks reads it. Signed with node's
 * own HMAC rather than the standardwebhooks package's JavaScript SHA-256, which cost a delivery
 * more than its DNS lookup did; the signature is the same (receivers verify it with the package).
 */
function signingKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error("Secret can't be empty.");
  return key;
}

const excerptOf = (body: Buffer): string | null => (body.length === 0 ? null : body.toString('utf8', 0, Math.min(body.length, EXCERPT_CHARS * 4)).slice(0, EXCERPT_CHARS));

/**
 * POSTs one signed event to an endpoint: the host is resolved and every address checked before
 * the connection, which goes to the checked address (server/net/outbound.ts). Only a 2xx is a
 * success; a 3xx is a failure and is never followed. Never throws: what went wrong is the result.
 */
export async function postEvent(deps: Pick<Deps, 'config'>, target: { url: string; secrets: string[] }, event: OutgoingEvent): Promise<AttemptResult> {
  const body = payloadOf(event);
  const signedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await outboundRequest(
      target.url,
      { method: 'POST', headers: signedHeaders(target.secrets, event.id, signedAt, body), body, timeoutMs: ATTEMPT_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES, overflow: 'truncate', keepAlive: true },
      outboundPolicyFromConfig(deps.config),
    );
    const status = response.status;
    const succeeded = status >= 200 && status < 300;
    let error: string | null = null;
    if (status >= 300 && status < 400) error = `answered ${status} (a redirect${response.headers.location ? ` to ${String(response.headers.location)}` : ''}); redirects are not followed, answer 2xx directly`;
    else if (!succeeded) error = `answered ${status}`;
    return { succeeded, responseStatus: status, durationMs: elapsed(), error, responseExcerpt: excerptOf(response.body), signedAt };
  } catch (failure) {
    const known = failure instanceof OutboundRefusedError || failure instanceof OutboundFailedError;
    const message = known ? failure.message : `the request failed: ${(failure as Error).message ?? String(failure)}`;
    return { succeeded: false, responseStatus: null, durationMs: elapsed(), error: known && failure instanceof OutboundRefusedError ? `refused before connecting: ${message}` : message, responseExcerpt: null, signedAt };
  }
}
