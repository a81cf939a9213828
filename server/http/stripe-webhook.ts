import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { applyStripeEvent } from '../services/billing/events';
import { verifiedStripeEvent } from '../services/billing/stripe-client';
import { readRawBody } from './body';
import { clientAddress } from './client-address';
import type { EntryLimiter } from './public-entry-limit';
import { sendError, sendJson } from './respond';

export const STRIPE_WEBHOOK_PATH = '/stripe/webhook';
/** Stripe's events are a few kilobytes; a subscription with many items or a long invoice stays well under this. */
export const STRIPE_WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * `POST /stripe/webhook` (docs/billing.md): the raw body, its `Stripe-Signature` checked with the
 * SDK before anything is parsed or stored; unsigned, wrongly signed or stale: 400 and nothing
 * changes. A verified event is applied once (stored by id) and answered 200; a failure to apply
 * it answers 503 so that Stripe delivers it again. 404 when Stripe is not configured.
 */
export async function handleStripeWebhook(req: IncomingMessage, res: ServerResponse, deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'jobs' | 'metrics'>, limiter: EntryLimiter): Promise<void> {
  const config = deps.config.stripe;
  if (!config) return sendError(res, 'NOT_FOUND', 'Not found');
  if (req.method !== 'POST') return sendError(res, 'METHOD_NOT_ALLOWED', 'Stripe webhooks are POSTed', { Allow: 'POST' });
  const admission = limiter.take(clientAddress(req, deps.config.trustedProxyCidrs));
  if (!admission.allowed) return sendError(res, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))), Connection: 'close' });
  let raw: Buffer;
  try {
    raw = await readRawBody(req, STRIPE_WEBHOOK_BODY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof AppError) return sendError(res, error.appCode, error.message, error.headers);
    return; // the client went away
  }
  const signature = req.headers['stripe-signature'];
  let event;
  try {
    // The signature covers the bytes as sent, so they are verified before any decoding.
    event = verifiedStripeEvent(config, raw.toString('utf8'), Array.isArray(signature) ? signature[0] : signature);
  } catch (error) {
    const unsigned = !signature;
    const message = unsigned ? 'The Stripe-Signature header is missing' : error instanceof SyntaxError ? 'The event is not valid JSON' : 'The Stripe-Signature does not match this body';
    return sendError(res, 'VALIDATION_ERROR', message);
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number' || typeof event.data?.object !== 'object' || event.data.object === null) {
    return sendError(res, 'VALIDATION_ERROR', 'The event lacks an id, type, created time or data object');
  }
  try {
    const applied = await applyStripeEvent(deps, event);
    return sendJson(res, 200, { received: true, duplicate: applied.duplicate, outcome: applied.outcome });
  } catch (error) {
    deps.log.error({ requestId: res.getHeader('X-Request-Id'), err: error, stripeEventId: event.id }, 'stripe event failed');
    return sendError(res, 'SERVICE_UNAVAILABLE', 'The event could not be applied now; Stripe will deliver it again', { 'Retry-After': '5' });
  }
}
