import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** One API call as the stand-in received it: method, path, the form body decoded, and the idempotency key. */
export interface StripeCall {
  method: string;
  path: string;
  params: Record<string, any>;
  idempotencyKey: string | undefined;
}

type Obj = Record<string, any>;

/** The price ids the stand-in's service is configured with: a monthly price per paid plan, and the metered overage price. */
export const STAND_IN_PRICES = { '10k': 'price_10k', '25k': 'price_25k', '50k': 'price_50k', '100k': 'price_100k', '250k': 'price_250k', '500k': 'price_500k', '1m': 'price_1m', '2m': 'price_2m' };
export const STAND_IN_OVERAGE_PRICE = 'price_overage';

/** Stripe's form encoding (`line_items[0][price]=…`) as nested objects; list indices become keys "0", "1"… */
function formFields(text: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = out;
    for (const part of path.slice(0, -1)) node = node[part] ??= {};
    node[path[path.length - 1]!] = value;
  }
  return out;
}

/**
 * A loopback stand-in for the part of Stripe's API the service calls (docs/billing.md): customers,
 * checkout sessions (with a page to pay on), subscriptions (retrieve, update), invoices (list),
 * billing portal sessions and billing meter events. The official SDK talks to it through its host,
 * port and protocol options, as it would to Stripe: form-encoded bodies, bearer key, idempotency
 * keys honoured (the same key answers the first answer again, as Stripe does for 24 hours).
 * Events are signed with the SDK's own test-header helper and posted to `webhookUrl`.
 */
export async function startStripeStandIn(options: { secretKey: string; webhookSecret: string; webhookUrl?: string; port?: number }) {
  const calls: StripeCall[] = [];
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices: Obj[] = [];
  const meterEvents: Obj[] = [];
  const answered = new Map<string, { status: number; body: Obj }>();
  const outages = new Map<string, number>();
  let webhookUrl = options.webhookUrl;
  const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
  const now = () => Math.floor(Date.now() / 1000);

  function handle(method: string, path: string, params: Obj): { status: number; body: Obj } {
    const notFound = (what: string) => ({ status: 404, body: { error: { type: 'invalid_request_error', message: `No such ${what}` } } });
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', email: params.email ?? null, name: params.name ?? null, metadata: params.metadata ?? {} };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const sessionId = id('cs_test');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: params.mode,
        customer: params.customer ?? null,
        client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {},
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        url: `${base}/checkout/${sessionId}`,
        params,
      };
      sessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    if ((match = path.match(/^\/v1\/subscriptions\/(sub_\w+)$/))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription) return notFound('subscription');
      if (method === 'POST') {
        // Items as Stripe takes them: one with an id changes (or goes, `deleted`), one without is added.
        for (const item of Object.values<Obj>(params.items ?? {})) {
          const held = item.id ? subscription.items.data.find((one: Obj) => one.id === item.id) : null;
          if (item.id && !held) return notFound('subscription item');
          if (held && item.deleted === 'true') subscription.items.data = subscription.items.data.filter((one: Obj) => one !== held);
          else if (held && item.price) held.price = { id: item.price };
          else if (!held) subscription.items.data.push(itemOf(item.price, subscription.current_period_start, subscription.current_period_end));
        }
        if (params.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = params.cancel_at_period_end === 'true';
        if (params.metadata) subscription.metadata = { ...subscription.metadata, ...params.metadata };
        subscription.last_update = params;
      }
      return { status: 200, body: subscription };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const data = invoices.filter((invoice) => !params.customer || invoice.customer === params.customer).slice(0, Number(params.limit ?? 10));
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/invoices' } };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      return { status: 200, body: { id: id('bps'), object: 'billing_portal.session', customer: params.customer, return_url: params.return_url, url: `${base}/portal/${params.customer}` } };
    }
    if (method === 'POST' && path === '/v1/billing/meter_events') {
      const event = { object: 'billing.meter_event', event_name: params.event_name, identifier: params.identifier ?? id('mev'), payload: params.payload, timestamp: Number(params.timestamp ?? now()), created: now() };
      // Stripe refuses a second event with the same identifier (within 24 hours).
      if (meterEvents.some((other) => other.identifier === event.identifier)) {
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_already_exists', message: 'An event already exists with this identifier' } } };
      }
      meterEvents.push(event);
      return { status: 200, body: event };
    }
    return notFound(`route ${method} ${path}`);
  }

  const itemOf = (price: string, periodStart: number, periodEnd: number) => ({ id: id('si'), price: { id: price }, current_period_start: periodStart, current_period_end: periodEnd });

  /** Completes a checkout session as a payment would: a subscription, a paid invoice, and the signed events. */
  async function pay(sessionId: string, outcome: 'paid' | 'pending' = 'paid') {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    const periodEnd = Number(session.params.subscription_data?.billing_cycle_anchor ?? now() + 30 * 86400);
    const subscription = {
      id: id('sub'),
      object: 'subscription',
      customer: session.customer,
      status: outcome === 'paid' ? 'active' : 'incomplete',
      metadata: session.params.subscription_data?.metadata ?? {},
      cancel_at_period_end: false,
      items: { object: 'list', data: Object.values<Obj>(session.params.line_items ?? {}).map((line) => itemOf(line.price, now(), periodEnd)) },
      current_period_start: now(),
      current_period_end: periodEnd,
    };
    subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', payment_status: outcome === 'paid' ? 'paid' : 'unpaid', subscription: subscription.id });
    const invoice = outcome === 'paid' ? addInvoice(subscription, 'paid') : null;
    const { params: _params, ...object } = session;
    await sendEvent('checkout.session.completed', object);
    return { session, subscription, invoice };
  }

  /** An invoice of a subscription, newest first, as `GET /v1/invoices` lists them (the subscription under `parent`, as in current API versions). */
  function addInvoice(subscription: Obj, status: 'paid' | 'open') {
    const invoice = {
      id: id('in'),
      object: 'invoice',
      customer: subscription.customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      number: `EUM-${String(invoices.length + 1).padStart(4, '0')}`,
      status,
      amount_due: 0,
      amount_paid: 0,
      currency: 'eur',
      period_start: subscription.current_period_start,
      period_end: subscription.current_period_end,
      created: now(),
      invoice_pdf: `${base}/invoices/${subscription.id}.pdf`,
      hosted_invoice_url: `${base}/invoices/${subscription.id}`,
    };
    invoices.unshift(invoice);
    return invoice;
  }

  /** A subscription's invoice paid (a prorated upgrade, a renewal, a debit that cleared): the invoice and the signed `invoice.paid`. */
  async function payInvoice(subscriptionId: string) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    subscription.status = 'active';
    const invoice = addInvoice(subscription, 'paid');
    return { invoice, ...(await sendEvent('invoice.paid', invoice)) };
  }

  /** Signs an event with the SDK's test-header helper and posts it to the service's webhook route. */
  async function sendEvent(type: string, object: Obj, options: { signature?: string | null; created?: number; id?: string } = {}) {
    const event = { id: options.id ?? id('evt'), object: 'event', type, created: options.created ?? now(), livemode: false, data: { object: structuredClone(object) } };
    const payload = JSON.stringify(event);
    const header = options.signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }) : options.signature;
    if (!webhookUrl) return { event, status: 0 };
    const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'stripe-signature': header }) }, body: payload });
    return { event, status: response.status, body: await response.text() };
  }
  const webhookSecret = options.webhookSecret;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const send = (status: number, body: Obj | string, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type, 'request-id': id('req') });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      // The checkout page a person pays on (e2e): one button, as Stripe's hosted page ends in a redirect.
      const page = url.pathname.match(/^\/checkout\/(cs_test_\w+)(\/pay)?$/);
      if (page) {
        const session = sessions.get(page[1]!);
        if (!session) return send(404, 'No such checkout session', 'text/plain');
        if (req.method === 'POST' && page[2]) {
          void pay(session.id).then(
            () => {
              res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) });
              res.end();
            },
            (error: unknown) => send(500, String(error), 'text/plain'),
          );
          return;
        }
        const price = session.params.line_items?.[0]?.price ?? '';
        return send(
          200,
          `<!doctype html><html><head><title>Stand-in checkout</title></head><body style="font-family:sans-serif;max-width:32rem;margin:4rem auto"><h1>Stand-in checkout</h1><p>Subscription to <code>${price}</code>. This page stands in for Stripe Checkout in tests.</p><form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form><p><a href="${session.cancel_url}">Cancel</a></p></body></html>`,
          'text/html',
        );
      }
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const body = Buffer.concat(chunks).toString('utf8');
      const params = req.method === 'GET' ? formFields(url.search.slice(1)) : formFields(body);
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      calls.push({ method: req.method ?? 'GET', path: url.pathname, params, idempotencyKey });
      // An outage stood in for: the next requests to a path answer 503, which the SDK retries and then gives up on.
      const outage = outages.get(url.pathname) ?? 0;
      if (outage > 0) {
        outages.set(url.pathname, outage - 1);
        return send(503, { error: { type: 'api_error', message: 'Stand-in outage' } });
      }
      const known = idempotencyKey && req.method === 'POST' ? answered.get(idempotencyKey) : undefined;
      if (known) return send(known.status, known.body);
      const answer = handle(req.method ?? 'GET', url.pathname, params);
      if (idempotencyKey && req.method === 'POST') answered.set(idempotencyKey, answer);
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    /** What STRIPE_API_BASE is set to. */
    apiBase: base,
    /** The STRIPE_* variables of a service that talks to this stand-in. */
    env: {
      STRIPE_SECRET_KEY: options.secretKey,
      STRIPE_WEBHOOK_SECRET: options.webhookSecret,
      STRIPE_API_BASE: base,
      STRIPE_PRICES: JSON.stringify(STAND_IN_PRICES),
      STRIPE_OVERAGE_PRICE: STAND_IN_OVERAGE_PRICE,
    },
    calls,
    customers,
    sessions,
    subscriptions,
    invoices,
    meterEvents,
    pay,
    payInvoice,
    sendEvent,
    /** The next `requests` calls to `path` answer 503 (the SDK retries each call twice: 3 makes one call fail). */
    failNext(path: string, requests: number) {
      outages.set(path, requests);
    },
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    reset() {
      calls.length = 0;
      invoices.length = 0;
      meterEvents.length = 0;
      for (const map of [customers, sessions, subscriptions, answered, outages]) map.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
