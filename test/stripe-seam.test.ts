import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '@/server/config';
import { createStripeClient, verifiedStripeEvent } from '@/server/services/billing/stripe-client';
import { STAND_IN_PRICES, startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in';

// Issue 33, item 8 and the seam every Stripe test goes through: the configuration, and the
// official SDK against a loopback stand-in through its host, port and protocol options.

const SECRET_KEY = 'sk_test_standin';
const WEBHOOK_SECRET = 'whsec_standin';
const PRICES = STAND_IN_PRICES;

let standIn: StripeStandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
});
afterAll(() => standIn.close());

const env = (extra: Record<string, string>) => ({ NODE_ENV: 'test', ...extra });
const stripeEnv = (extra: Record<string, string> = {}) =>
  env({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: standIn.apiBase, STRIPE_PRICES: JSON.stringify(PRICES), STRIPE_OVERAGE_PRICE: 'price_overage', ...extra });

describe('the Stripe configuration', () => {
  it('is off without STRIPE_SECRET_KEY, with a grace period of 7 days by default', () => {
    const config = loadConfig(env({}));
    expect(config.stripe).toBeNull();
    expect(config.billingGraceDays).toBe(7);
    expect(loadConfig(env({ BILLING_GRACE_DAYS: '3' })).billingGraceDays).toBe(3);
  });

  it('reads the key, the webhook secret, the API base as host, port and protocol, the prices inline or from a file, and the overage meter', () => {
    const port = Number(new URL(standIn.apiBase).port);
    expect(loadConfig(stripeEnv()).stripe).toEqual({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: { host: '127.0.0.1', port, protocol: 'http' },
      prices: PRICES,
      overage: { meterEventName: 'eumail_overage_millicents', price: 'price_overage' },
    });
    expect(loadConfig(stripeEnv({ STRIPE_OVERAGE_METER: 'emails-past-quota' })).stripe!.overage).toEqual({ meterEventName: 'emails-past-quota', price: 'price_overage' });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'prices-')), 'prices.json');
    writeFileSync(file, JSON.stringify(PRICES));
    expect(loadConfig(stripeEnv({ STRIPE_PRICES: file, STRIPE_API_BASE: '' })).stripe).toMatchObject({ prices: PRICES, apiBase: null });
  });

  it('refuses what would leave a plan without a price or the webhooks unverifiable, naming the variable', () => {
    const refusal = (extra: Record<string, string>) => {
      try {
        loadConfig(extra);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal(stripeEnv({ STRIPE_WEBHOOK_SECRET: '' }))).toMatch(/STRIPE_WEBHOOK_SECRET is required/);
    expect(refusal(stripeEnv({ STRIPE_SECRET_KEY: 'pk_test_x' }))).toMatch(/STRIPE_SECRET_KEY must be a Stripe secret/);
    expect(refusal(stripeEnv({ STRIPE_PRICES: '' }))).toMatch(/STRIPE_PRICES is required/);
    expect(refusal(stripeEnv({ STRIPE_PRICES: JSON.stringify({ ...PRICES, '2m': undefined }) }))).toMatch(/STRIPE_PRICES has no price for 2m/);
    expect(refusal(stripeEnv({ STRIPE_PRICES: JSON.stringify({ ...PRICES, free: 'price_free' }) }))).toMatch(/"free", which is not a paid plan/);
    expect(refusal(stripeEnv({ STRIPE_PRICES: JSON.stringify({ ...PRICES, '10k': 'ten' }) }))).toMatch(/price of 10k must be a Stripe price id/);
    expect(refusal(stripeEnv({ STRIPE_PRICES: '/nonexistent/prices.json' }))).toMatch(/neither a JSON object nor a readable file/);
    expect(refusal(stripeEnv({ STRIPE_API_BASE: 'ftp://127.0.0.1' }))).toMatch(/STRIPE_API_BASE must be an http or https URL/);
    expect(refusal(stripeEnv({ STRIPE_API_BASE: 'http://127.0.0.1:1/v1' }))).toMatch(/without a path/);
    expect(refusal(env({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }))).toMatch(/need STRIPE_SECRET_KEY/);
    expect(refusal(env({ STRIPE_OVERAGE_PRICE: 'price_overage' }))).toMatch(/need STRIPE_SECRET_KEY/);
    expect(refusal(stripeEnv({ STRIPE_OVERAGE_PRICE: '' }))).toMatch(/STRIPE_OVERAGE_PRICE is required/);
    expect(refusal(stripeEnv({ STRIPE_OVERAGE_PRICE: 'overage' }))).toMatch(/STRIPE_OVERAGE_PRICE must be a Stripe price id/);
    expect(refusal(stripeEnv({ STRIPE_OVERAGE_PRICE: 'price_10k' }))).toMatch(/must differ from every plan price/);
    expect(refusal(stripeEnv({ STRIPE_OVERAGE_METER: 'overage cents' }))).toMatch(/STRIPE_OVERAGE_METER must be a meter event name/);
    expect(refusal(env({ BILLING_GRACE_DAYS: '-1' }))).toMatch(/BILLING_GRACE_DAYS/);
  });
});

describe('the official SDK against the stand-in', () => {
  it('reaches every endpoint the service calls, with its key, form-encoded, and idempotency keys honoured', async () => {
    const stripe = createStripeClient(loadConfig(stripeEnv()).stripe!);
    const customer = await stripe.customers.create({ email: 'owner@acme.test', metadata: { organizationId: 'org-1' } });
    expect(customer).toMatchObject({ id: expect.stringMatching(/^cus_/), email: 'owner@acme.test', metadata: { organizationId: 'org-1' } });

    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: PRICES['10k'], quantity: 1 }],
      success_url: 'http://127.0.0.1/billing?checkout={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1/billing',
    });
    expect(session.url).toBe(`${standIn.url}/checkout/${session.id}`);
    expect(standIn.calls.at(-1)).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', params: { mode: 'subscription', line_items: { 0: { price: 'price_10k', quantity: '1' } } } });

    const { subscription } = await standIn.pay(session.id);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    const updated = await stripe.subscriptions.update(subscription.id, { items: [{ id: subscription.items.data[0]!.id, price: PRICES['100k'] }], proration_behavior: 'always_invoice' });
    expect(updated.items.data[0]!.price.id).toBe('price_100k');
    expect(standIn.calls.at(-1)!.params).toMatchObject({ proration_behavior: 'always_invoice' });

    const invoices = await stripe.invoices.list({ customer: customer.id, limit: 12 });
    expect(invoices.data).toHaveLength(1);
    expect(invoices.data[0]).toMatchObject({ status: 'paid', number: expect.stringMatching(/^EUM-/) });

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://127.0.0.1/billing' });
    expect(portal.url).toContain(customer.id);

    const meter = (identifier: string) =>
      stripe.billing.meterEvents.create({ event_name: 'emails_overage', identifier, payload: { stripe_customer_id: customer.id, value: '1000' } }, { idempotencyKey: identifier });
    await meter('org-1:2026-11:1');
    await meter('org-1:2026-11:1');
    expect(standIn.meterEvents).toHaveLength(1);
    expect(standIn.calls.filter((call) => call.path === '/v1/billing/meter_events').map((call) => call.idempotencyKey)).toEqual(['org-1:2026-11:1', 'org-1:2026-11:1']);
  });

  it('refuses a wrong key as Stripe does', async () => {
    const stripe = createStripeClient({ ...loadConfig(stripeEnv()).stripe!, secretKey: 'sk_test_wrong' });
    await expect(stripe.customers.create({ email: 'x@acme.test' })).rejects.toMatchObject({ type: 'StripeAuthenticationError' });
  });

  it("verifies a webhook's signature with the SDK: signed events pass, unsigned or wrongly signed ones throw", async () => {
    const config = loadConfig(stripeEnv()).stripe!;
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: {} } });
    const { default: Stripe } = await import('stripe');
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(verifiedStripeEvent(config, payload, signed).id).toBe('evt_1');
    expect(() => verifiedStripeEvent(config, payload, undefined)).toThrow();
    expect(() => verifiedStripeEvent(config, payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }))).toThrow(/signature/i);
    expect(() => verifiedStripeEvent(config, payload.replace('invoice.paid', 'invoice.payment_failed'), signed)).toThrow(/signature/i);
  });
});
