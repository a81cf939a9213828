import Stripe from 'stripe';
import type { StripeConfig } from '../../config-stripe';

/**
 * The one place the Stripe SDK is made: STRIPE_API_BASE becomes the SDK's own host, port and
 * protocol options, so tests and proxies reach the same code paths as Stripe itself. Retries are
 * the SDK's (it adds an idempotency key to each retried POST); a request gives up after 20 s
 * rather than the SDK's 80, since a person waits on the checkout link.
 */
export function createStripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    ...(config.apiBase ?? {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'EU Mail' },
  });
}

/** Verifies a webhook's `Stripe-Signature` against the raw body with the SDK; throws when it does not match. */
export function verifiedStripeEvent(config: StripeConfig, rawBody: string, signature: string | undefined): Stripe.Event {
  // No header is a signature that matches nothing: the SDK refuses it like a wrong one.
  return Stripe.webhooks.constructEvent(rawBody, signature ?? '', config.webhookSecret);
}

export type { Stripe };
