import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { auditEvents, planChangeRequests, stripeAccounts, stripeEvents, systemEmails } from '@/db/schema';
import { parseAdminArgs, runAdminCommand } from '@/server/admin/commands';
import { restrictUnpaidAccounts } from '@/server/services/billing/payment-standing';
import { STRIPE_WEBHOOK_BODY_LIMIT_BYTES } from '@/server/http/stripe-webhook';
import { dashboardCall, makeMemberOf, signUpPerson, type DashboardPerson } from './support/dashboard-session';
import { stripeWorld } from './support/stripe-world';

// Issue 33, items 1, 2, 3 and 6: with Stripe, an upgrade is paid before any limit rises. The
// official SDK talks to a loopback stand-in; its events are signed with the SDK's test-header
// helper and posted to the service's webhook route.

const world = stripeWorld({ now: '2026-11-16T00:00:00.000Z' });
const { deps } = world;
const call = (person: { cookie: string }, kind: 'query' | 'mutation', path: string, input: unknown = {}) => dashboardCall(world.app, person.cookie, kind, path, input);
const row = world.organization;
const account = async (id: string) => (await deps().db.select().from(stripeAccounts).where(eq(stripeAccounts.organizationId, id)))[0];
const planChanges = async (id: string) =>
  (await deps().db.select({ action: auditEvents.action, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.organizationId, id))).filter((r) => r.action === 'organization.plan_changed');
const sessionIdOf = (url: string) => url.split('/').at(-1)!;

/** A Free owner starts a checkout for `plan`: answers the session id from the URL the dashboard is sent to. */
async function startCheckout(owner: DashboardPerson, plan: string) {
  const answer = await call(owner, 'mutation', 'organization.changePlan', { plan });
  expect(answer.status).toBe(200);
  expect(answer.data.payment).toMatchObject({ kind: 'checkout', url: expect.stringMatching(`^${world.standIn.url}/checkout/cs_test_`) });
  return sessionIdOf(answer.data.payment.url);
}

/** An owner on a paid plan through a paid checkout: answers the subscription. */
async function paidOwner(email: string, plan = '10k') {
  const owner = await signUpPerson(world.app, email);
  const subscription = await world.payCheckout(await startCheckout(owner, plan), owner.organizationId, plan);
  return { owner, subscription };
}

describe('an upgrade from Free with Stripe', () => {
  it('is a Checkout session in subscription mode, anchored to the 1st, with tax and VAT id; the plan does not change', async () => {
    const owner = await signUpPerson(world.app, 'owner@checkout.test');
    const quote = await call(owner, 'query', 'usage.quotePlanChange', { plan: '100k' });
    expect(quote.data).toMatchObject({ kind: 'upgrade', from: 'free', to: '100k', settlement: 'checkout' });

    const sessionId = await startCheckout(owner, '100k');
    expect((await row(owner.organizationId)).plan).toBe('free');
    const [customerCall, sessionCall] = world.standIn.calls;
    expect(customerCall).toMatchObject({ method: 'POST', path: '/v1/customers', params: { email: 'owner@checkout.test', metadata: { organizationId: owner.organizationId } } });
    expect(sessionCall!.path).toBe('/v1/checkout/sessions');
    expect(sessionCall!.params).toEqual({
      mode: 'subscription',
      customer: (await account(owner.organizationId))!.customerId,
      client_reference_id: owner.organizationId,
      line_items: { 0: { price: 'price_100k', quantity: '1' }, 1: { price: 'price_overage' } },
      subscription_data: {
        billing_cycle_anchor: String(Date.parse('2026-12-01T00:00:00.000Z') / 1000),
        proration_behavior: 'create_prorations',
        metadata: { organizationId: owner.organizationId, plan: '100k' },
      },
      automatic_tax: { enabled: 'true' },
      tax_id_collection: { enabled: 'true' },
      billing_address_collection: 'required',
      customer_update: { address: 'auto', name: 'auto' },
      metadata: { organizationId: owner.organizationId, plan: '100k' },
      success_url: 'http://127.0.0.1:3000/billing?checkout={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:3000/billing?checkout=cancelled',
    });
    expect(world.standIn.sessions.get(sessionId)).toBeDefined();

    // The customer is made once per organization: a second checkout reuses it.
    await startCheckout(owner, '10k');
    expect(world.standIn.calls.filter((c) => c.path === '/v1/customers')).toHaveLength(1);
    expect(world.standIn.customers.size).toBe(1);
    expect(world.standIn.calls.at(-1)!.params.customer).toBe((await account(owner.organizationId))!.customerId);
  });

  it('paid: the plan changes at once on the signed webhook, with an audit entry, and an open request is closed', async () => {
    const owner = await signUpPerson(world.app, 'paid@checkout.test');
    // A request from before Stripe was configured, still open.
    await deps().db.insert(planChangeRequests).values({ id: crypto.randomUUID(), organizationId: owner.organizationId, fromPlan: 'free', plan: '50k', requestedByEmail: 'paid@checkout.test', requestedAt: world.app.clock.now() });
    const sessionId = await startCheckout(owner, '50k');
    const { subscription } = await world.standIn.pay(sessionId);

    expect(await row(owner.organizationId)).toMatchObject({ plan: '50k', pendingPlan: null, paidSince: world.app.clock.now() });
    const [change] = await planChanges(owner.organizationId);
    expect(change!.details).toMatchObject({ kind: 'upgrade', from: 'free', to: '50k', via: 'stripe' });
    const [request] = await deps().db.select().from(planChangeRequests).where(eq(planChangeRequests.organizationId, owner.organizationId));
    expect(request).toMatchObject({ resolution: 'approved', resolvedAt: world.app.clock.now() });
    expect(await account(owner.organizationId)).toMatchObject({ subscriptionId: subscription.id, subscriptionStatus: 'active', paymentPendingPlan: null });
    const events = await deps().db.select().from(stripeEvents);
    expect(events).toEqual([expect.objectContaining({ type: 'checkout.session.completed', organizationId: owner.organizationId, outcome: 'plan raised to 50k' })]);

    // The next upgrade is a subscription update, and the dialog says so.
    expect((await call(owner, 'query', 'usage.quotePlanChange', { plan: '100k' })).data.settlement).toBe('subscription_update');
  });

  it('abandoned: the checkout expires and nothing changes', async () => {
    const owner = await signUpPerson(world.app, 'abandon@checkout.test');
    const sessionId = await startCheckout(owner, '25k');
    const session = world.standIn.sessions.get(sessionId)!;
    const { params: _params, ...object } = session;
    const expired = await world.standIn.sendEvent('checkout.session.expired', { ...object, status: 'expired' });
    expect(expired.status).toBe(200);
    expect(await row(owner.organizationId)).toMatchObject({ plan: 'free', pendingPlan: null, paidSince: null });
    expect(await planChanges(owner.organizationId)).toEqual([]);
    expect(await account(owner.organizationId)).toMatchObject({ subscriptionId: null, paymentPendingPlan: null });
  });

  it('SEPA: an unpaid completed checkout keeps the old plan and the page says the payment is pending; it rises when the debit clears', async () => {
    const owner = await signUpPerson(world.app, 'sepa@checkout.test');
    const sessionId = await startCheckout(owner, '25k');
    const { subscription } = await world.standIn.pay(sessionId, 'pending');
    expect((await row(owner.organizationId)).plan).toBe('free');
    const state = await call(owner, 'query', 'organization.paymentState');
    expect(state.data).toMatchObject({ provider: 'stripe', paymentPending: { plan: '25k', since: '2026-11-16T00:00:00.000Z' } });
    expect(await planChanges(owner.organizationId)).toEqual([]);
    // No second checkout beside the one being paid for.
    const again = await call(owner, 'mutation', 'organization.changePlan', { plan: '50k' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/payment for .* is still being processed/);
    expect(world.standIn.calls.filter((c) => c.path === '/v1/checkout/sessions')).toHaveLength(1);

    // The debit clears days later: Stripe pays the invoice.
    world.app.clock.set('2026-11-19T00:00:00.000Z');
    expect((await world.standIn.payInvoice(subscription.id)).status).toBe(200);
    expect((await row(owner.organizationId)).plan).toBe('25k');
    expect((await call(owner, 'query', 'organization.paymentState')).data.paymentPending).toBeNull();
  });

  it('a payment only raises to the plan paid for: metadata naming another organization, or a lower plan, changes nothing', async () => {
    const { owner, subscription } = await paidOwner('raise@checkout.test', '100k');
    const other = await signUpPerson(world.app, 'other@checkout.test');
    const session = { object: 'checkout.session', mode: 'subscription', customer: subscription.customer, payment_status: 'paid', subscription: subscription.id };
    await world.standIn.sendEvent('checkout.session.completed', { ...session, id: 'cs_test_other', metadata: { organizationId: other.organizationId, plan: '2m' } });
    await world.standIn.sendEvent('checkout.session.completed', { ...session, id: 'cs_test_lower', metadata: { organizationId: owner.organizationId, plan: '10k' } });
    await world.standIn.sendEvent('checkout.session.completed', { ...session, id: 'cs_test_bogus', metadata: { organizationId: owner.organizationId, plan: 'unlimited' } });
    expect((await row(owner.organizationId)).plan).toBe('100k');
    expect((await row(other.organizationId)).plan).toBe('free');
    const outcomes = (await deps().db.select({ outcome: stripeEvents.outcome }).from(stripeEvents)).map((r) => r.outcome).sort();
    expect(outcomes).toEqual(['ignored: metadata names another organization', 'ignored: no paid plan "unlimited"', 'plan raised to 100k', 'unchanged: paid for 10k, on 100k']);
  });
});

describe('the webhook route', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${world.app.url}/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const sign = (payload: string, secret = world.webhookSecret) => Stripe.webhooks.generateTestHeaderString({ payload, secret });

  it('refuses an unsigned or wrongly signed event with 400 {error, code}, and nothing changes', async () => {
    const owner = await signUpPerson(world.app, 'forged@checkout.test');
    const sessionId = await startCheckout(owner, '2m');
    const { params: _params, ...object } = world.standIn.sessions.get(sessionId)!;
    const forged = { ...object, status: 'complete', payment_status: 'paid' };
    for (const signature of [null, 'garbage', sign('{}'), Stripe.webhooks.generateTestHeaderString({ payload: '{}', secret: 'whsec_attacker' })]) {
      const sent = await world.standIn.sendEvent('checkout.session.completed', forged, { signature });
      expect(sent.status, String(signature)).toBe(400);
      expect(JSON.parse(sent.body!)).toMatchObject({ error: expect.stringMatching(/Stripe-Signature/), code: 'VALIDATION_ERROR' });
    }
    // Signed by the attacker's own secret over the exact body: still refused.
    const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), data: { object: forged } });
    expect((await post(payload, { 'stripe-signature': sign(payload, 'whsec_attacker') })).status).toBe(400);
    expect((await row(owner.organizationId)).plan).toBe('free');
    expect(await deps().db.select().from(stripeEvents)).toEqual([]);
    expect(await planChanges(owner.organizationId)).toEqual([]);
  });

  it('hostile input: malformed JSON, an oversized body, a missing header, a wrong method, a signed event without its fields', async () => {
    const malformed = '{"id": "evt_1", "type": ';
    const bad = await post(malformed, { 'stripe-signature': sign(malformed) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'The event is not valid JSON', code: 'VALIDATION_ERROR' });

    const huge = JSON.stringify({ id: 'evt_huge', pad: 'x'.repeat(STRIPE_WEBHOOK_BODY_LIMIT_BYTES) });
    const tooLarge = await post(huge, { 'stripe-signature': sign(huge) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });

    const missing = await post('{"id":"evt_1"}');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'The Stripe-Signature header is missing', code: 'VALIDATION_ERROR' });

    const get = await fetch(`${world.app.url}/stripe/webhook`);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });

    const hollow = JSON.stringify({ id: 'evt_hollow', type: 'invoice.paid' });
    const noFields = await post(hollow, { 'stripe-signature': sign(hollow) });
    expect(noFields.status).toBe(400);
    expect(await noFields.json()).toMatchObject({ code: 'VALIDATION_ERROR' });

    // Binary garbage, signed: not JSON either.
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString('latin1');
    expect((await post(binary, { 'stripe-signature': sign(binary) })).status).toBe(400);
    expect(await deps().db.select().from(stripeEvents)).toEqual([]);
  });

  it('is rate limited per client address like the other public entry points', async () => {
    const answers = await Promise.all(Array.from({ length: 620 }, () => post('{}')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(600);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('applies a redelivered event once', async () => {
    const owner = await signUpPerson(world.app, 'twice@checkout.test');
    const sessionId = await startCheckout(owner, '10k');
    const { subscription } = await world.standIn.pay(sessionId);
    const [first] = await deps().db.select().from(stripeEvents);
    // Stripe delivers the same event again (same id and body); then a renewal invoice twice.
    const { params: _params, ...object } = world.standIn.sessions.get(sessionId)!;
    const again = await world.standIn.sendEvent('checkout.session.completed', object, { id: first!.id, created: first!.createdAt.getTime() / 1000 });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body!)).toMatchObject({ received: true, duplicate: true, outcome: 'plan raised to 10k' });
    expect(await planChanges(owner.organizationId)).toHaveLength(1);

    // The customer moves up paid-to-paid; its invoice.paid delivered twice raises once.
    await call(owner, 'mutation', 'organization.changePlan', { plan: '50k' });
    const paid = await world.standIn.payInvoice(subscription.id);
    const redelivered = await world.standIn.sendEvent('invoice.paid', paid.invoice, { id: paid.event.id, created: paid.event.created });
    expect(JSON.parse(redelivered.body!)).toMatchObject({ duplicate: true });
    expect((await row(owner.organizationId)).plan).toBe('50k');
    expect(await planChanges(owner.organizationId)).toHaveLength(2);
    expect(await deps().db.select().from(stripeEvents)).toHaveLength(2);
  });

  it('out of order: the newest subscription state wins', async () => {
    const { owner, subscription } = await paidOwner('order@checkout.test', '10k');
    const created = Math.floor(Date.now() / 1000);
    const newer = { ...subscription, status: 'past_due' };
    const older = { ...subscription, status: 'active' };
    expect((await world.standIn.sendEvent('customer.subscription.updated', newer, { created: created + 20 })).status).toBe(200);
    const late = await world.standIn.sendEvent('customer.subscription.updated', older, { created: created + 10 });
    expect(JSON.parse(late.body!).outcome).toBe('ignored: older than the subscription state held');
    expect(await account(owner.organizationId)).toMatchObject({ subscriptionStatus: 'past_due', stateAt: new Date((created + 20) * 1000) });

    // A deletion stamped before a newer update is dropped too: the organization keeps its plan.
    const staleDelete = await world.standIn.sendEvent('customer.subscription.deleted', { ...subscription, status: 'canceled', ended_at: created }, { created: created + 5 });
    expect(JSON.parse(staleDelete.body!).outcome).toBe('ignored: older than the subscription state held');
    expect(await row(owner.organizationId)).toMatchObject({ plan: '10k', pendingPlan: null });

    // A subscription update never raises a plan by itself: only a payment does.
    const raised = { ...subscription, items: { ...subscription.items, data: [{ ...subscription.items.data[0]!, price: { id: 'price_2m' } }] } };
    await world.standIn.sendEvent('customer.subscription.updated', raised, { created: created + 30 });
    expect((await row(owner.organizationId)).plan).toBe('10k');
    expect(await account(owner.organizationId)).toMatchObject({ subscriptionPlan: '2m' });
  });

  it('a deleted subscription returns to Free: at once at the period boundary, else at the end of the month', async () => {
    const { owner, subscription } = await paidOwner('ended@checkout.test', '25k');
    world.app.clock.set('2026-11-20T00:00:00.000Z');
    const midMonth = Date.parse('2026-11-20T00:00:00.000Z') / 1000;
    await world.standIn.sendEvent('customer.subscription.deleted', { ...subscription, status: 'canceled', ended_at: midMonth }, { created: Math.floor(Date.now() / 1000) + 60 });
    expect(await row(owner.organizationId)).toMatchObject({ plan: '25k', pendingPlan: 'free', pendingPlanAt: new Date('2026-12-01T00:00:00.000Z') });

    const { owner: second, subscription: secondSubscription } = await paidOwner('boundary@checkout.test', '25k');
    world.app.clock.set('2026-12-01T00:00:05.000Z');
    const boundary = Date.parse('2026-12-01T00:00:00.000Z') / 1000;
    await world.standIn.sendEvent('customer.subscription.deleted', { ...secondSubscription, status: 'canceled', ended_at: boundary }, { created: Math.floor(Date.now() / 1000) + 60 });
    expect(await row(second.organizationId)).toMatchObject({ plan: 'free', pendingPlan: null });
  });
});

describe('paid-to-paid with Stripe', () => {
  it('an upgrade updates the subscription, prorated and invoiced at once; the plan rises on invoice.paid, not before', async () => {
    const { owner, subscription } = await paidOwner('up@checkout.test', '10k');
    const billing = await signUpPerson(world.app, 'billing@checkout.test');
    await makeMemberOf(world.app, billing, owner.organizationId, 'billing');
    world.standIn.calls.length = 0;

    const answer = await call(billing, 'mutation', 'organization.changePlan', { plan: '250k' });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ change: null, request: null, payment: { kind: 'subscription_update' } });
    const update = world.standIn.calls.find((c) => c.method === 'POST' && c.path === `/v1/subscriptions/${subscription.id}`)!;
    expect(update.params).toEqual({
      items: { 0: { id: subscription.items.data[0]!.id, price: 'price_250k' } },
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    expect((await row(owner.organizationId)).plan).toBe('10k');
    expect(world.standIn.calls.some((c) => c.path === '/v1/checkout/sessions')).toBe(false);

    await world.standIn.payInvoice(subscription.id);
    expect((await row(owner.organizationId)).plan).toBe('250k');
    const changes = (await planChanges(owner.organizationId)).map((c) => c.details);
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'free', to: '10k', via: 'stripe' }), expect.objectContaining({ from: '10k', to: '250k', via: 'stripe' })]));
  });

  it('a downgrade waits for the period end and sets the renewal price without proration; keeping the plan puts it back; Free cancels at period end', async () => {
    const { owner, subscription } = await paidOwner('down@checkout.test', '100k');
    world.standIn.calls.length = 0;
    const down = await call(owner, 'mutation', 'organization.changePlan', { plan: '25k' });
    expect(down.data.change).toMatchObject({ kind: 'downgrade', effectiveAt: '2026-12-01T00:00:00.000Z' });
    expect(await row(owner.organizationId)).toMatchObject({ plan: '100k', pendingPlan: '25k' });
    const renewal = () => world.standIn.calls.filter((c) => c.method === 'POST' && c.path === `/v1/subscriptions/${subscription.id}`).at(-1)!.params;
    expect(renewal()).toEqual({ items: { 0: { id: subscription.items.data[0]!.id, price: 'price_25k' } }, proration_behavior: 'none', cancel_at_period_end: 'false' });

    // The renewal invoice at the lower price never lowers the plan early, nor raises it.
    await world.standIn.payInvoice(subscription.id);
    expect(await row(owner.organizationId)).toMatchObject({ plan: '100k', pendingPlan: '25k' });

    await call(owner, 'mutation', 'organization.changePlan', { plan: '100k' });
    expect(renewal()).toMatchObject({ items: { 0: { price: 'price_100k' } }, proration_behavior: 'none' });
    expect(await row(owner.organizationId)).toMatchObject({ plan: '100k', pendingPlan: null });

    await call(owner, 'mutation', 'organization.changePlan', { plan: 'free' });
    expect(renewal()).toEqual({ cancel_at_period_end: 'true' });
    expect(world.standIn.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);
    expect(await row(owner.organizationId)).toMatchObject({ plan: '100k', pendingPlan: 'free' });
  });
});

describe('deleting an organization with Stripe', () => {
  it('ends the subscription with the period paid, and a cancelled deletion renews again as the plan chosen', async () => {
    const { owner, subscription } = await paidOwner('leaving@checkout.test', '50k');
    const name = (await row(owner.organizationId)).name;
    const renewal = () => world.standIn.calls.filter((c) => c.method === 'POST' && c.path === `/v1/subscriptions/${subscription.id}`).at(-1)?.params;
    const requested = await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: name });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    expect(renewal()).toEqual({ cancel_at_period_end: 'true' });
    expect(world.standIn.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);

    expect((await call(owner, 'mutation', 'organization.cancelDeletion', {})).status).toBe(200);
    expect(renewal()).toEqual({ items: { 0: { id: subscription.items.data[0]!.id, price: 'price_50k' } }, proration_behavior: 'none', cancel_at_period_end: 'false' });
    expect(world.standIn.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);

    // With a downgrade chosen before, the renewal goes back to that plan's price, not the current one.
    await call(owner, 'mutation', 'organization.changePlan', { plan: '25k' });
    await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: name });
    await call(owner, 'mutation', 'organization.cancelDeletion', {});
    expect(renewal()).toMatchObject({ items: { 0: { price: 'price_25k' } }, cancel_at_period_end: 'false' });
  });

  it('an organization without a subscription asks Stripe nothing', async () => {
    const owner = await signUpPerson(world.app, 'never-paid@checkout.test');
    world.standIn.calls.length = 0;
    const name = (await row(owner.organizationId)).name;
    expect((await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: name })).status).toBe(200);
    expect((await call(owner, 'mutation', 'organization.cancelDeletion', {})).status).toBe(200);
    expect(world.standIn.calls).toEqual([]);
  });
});

describe('invoices and the customer portal', () => {
  it('lists the invoices from Stripe for the owner and billing members, and links to the portal; others are refused', async () => {
    const fresh = await signUpPerson(world.app, 'none@checkout.test');
    expect((await call(fresh, 'query', 'billing.invoices')).data).toEqual([]);
    expect((await call(fresh, 'mutation', 'billing.portal')).body.error.data.code).toBe('NOT_FOUND');

    const { owner, subscription } = await paidOwner('invoices@checkout.test', '50k');
    const billing = await signUpPerson(world.app, 'payer@checkout.test');
    await makeMemberOf(world.app, billing, owner.organizationId, 'billing');
    const developer = await signUpPerson(world.app, 'dev@checkout.test');
    await makeMemberOf(world.app, developer, owner.organizationId, 'developer');
    await world.standIn.payInvoice(subscription.id);

    const customerId = (await account(owner.organizationId))!.customerId;
    for (const person of [owner, billing]) {
      const listed = await call(person, 'query', 'billing.invoices');
      expect(listed.status).toBe(200);
      expect(listed.data).toHaveLength(2);
      expect(listed.data[0]).toMatchObject({ number: 'EUM-0002', status: 'paid', currency: 'eur', pdfUrl: `${world.standIn.url}/invoices/${subscription.id}.pdf`, periodEnd: expect.any(String) });
      expect(world.standIn.calls.at(-1)).toMatchObject({ method: 'GET', path: '/v1/invoices', params: { customer: customerId, limit: '36' } });

      const portal = await call(person, 'mutation', 'billing.portal');
      expect(portal.data).toEqual({ url: `${world.standIn.url}/portal/${customerId}` });
      expect(world.standIn.calls.at(-1)).toMatchObject({ path: '/v1/billing_portal/sessions', params: { customer: customerId, return_url: 'http://127.0.0.1:3000/billing' } });
    }
    expect((await call(developer, 'query', 'billing.invoices')).status).toBe(403);
    expect((await call(developer, 'mutation', 'billing.portal')).status).toBe(403);
  });
});

describe('a failed renewal', () => {
  const admin = (...argv: string[]) => {
    const { command, args } = parseAdminArgs(argv);
    return runAdminCommand(deps(), command, args) as Promise<any>;
  };
  const failRenewal = (subscription: { id: string; customer: string }, created?: number) =>
    world.standIn.sendEvent(
      'invoice.payment_failed',
      { id: `in_failed_${subscription.id}`, object: 'invoice', customer: subscription.customer, billing_reason: 'subscription_cycle', status: 'open', parent: { subscription_details: { subscription: subscription.id } } },
      created ? { created } : {},
    );
  const failedMail = async () => (await deps().db.select({ kind: systemEmails.kind, to: systemEmails.toAddress, subject: systemEmails.subject }).from(systemEmails)).filter((m) => m.kind === 'payment_failed');

  it('mails the owner and billing members once, sending continues for the grace period, then restricted; paying lifts it', async () => {
    const { owner, subscription } = await paidOwner('late@checkout.test', '50k');
    const billing = await signUpPerson(world.app, 'accounts@checkout.test');
    await makeMemberOf(world.app, billing, owner.organizationId, 'billing');
    const developer = await signUpPerson(world.app, 'coder@checkout.test');
    await makeMemberOf(world.app, developer, owner.organizationId, 'developer');
    world.app.clock.set('2026-12-01T01:00:00.000Z');

    expect(JSON.parse((await failRenewal(subscription)).body!).outcome).toBe('renewal failed: grace period started');
    // Stripe's retry fails too: no second mail, the grace does not restart.
    expect(JSON.parse((await failRenewal(subscription)).body!).outcome).toBe('renewal failed again: grace period unchanged');
    const mail = await failedMail();
    expect(mail.map((m) => m.to).sort()).toEqual(['accounts@checkout.test', 'late@checkout.test']);
    expect(mail[0]!.subject).toMatch(/^Payment for .* failed: please update the payment method by 2026-12-08$/);
    expect(await row(owner.organizationId)).toMatchObject({ paymentFailedAt: new Date('2026-12-01T01:00:00.000Z'), paymentGraceUntil: new Date('2026-12-08T01:00:00.000Z') });

    // Within the grace period: still active.
    world.app.clock.set('2026-12-08T00:59:00.000Z');
    expect(await restrictUnpaidAccounts(deps())).toBe(0);
    expect((await row(owner.organizationId)).status).toBe('active');
    world.app.clock.set('2026-12-08T01:00:00.000Z');
    expect(await restrictUnpaidAccounts(deps())).toBe(1);
    expect(await row(owner.organizationId)).toMatchObject({ status: 'restricted', statusCause: 'non_payment', plan: '50k' });
    expect(await restrictUnpaidAccounts(deps())).toBe(0);

    // Paid: active again.
    const paid = await world.standIn.payInvoice(subscription.id);
    expect(JSON.parse(paid.body!).outcome).toMatch(/what was owed is paid/);
    expect(await row(owner.organizationId)).toMatchObject({ status: 'active', plan: '50k' });
    expect(await row(owner.organizationId)).toMatchObject({ statusCause: null, paymentFailedAt: null, paymentGraceUntil: null });
    const billingActions = (await deps().db.select({ action: auditEvents.action, actor: auditEvents.actorKind }).from(auditEvents).where(eq(auditEvents.organizationId, owner.organizationId)).orderBy(asc(auditEvents.occurredAt)))
      .filter((r) => r.action.startsWith('billing.'))
      .map((r) => `${r.actor} ${r.action}`);
    expect(billingActions).toEqual(['billing billing.payment_failed', 'billing billing.restricted_for_non_payment', 'billing billing.payment_recovered']);
  });

  it('paying never lifts a restriction an operator set; a failed first checkout or upgrade starts no grace', async () => {
    const { owner, subscription } = await paidOwner('abuse@checkout.test', '10k');
    await admin('org:status', '--org', owner.organizationId, '--status', 'restricted');
    world.app.clock.set('2026-12-01T01:00:00.000Z');
    await failRenewal(subscription);
    world.app.clock.set('2026-12-20T00:00:00.000Z');
    expect(await restrictUnpaidAccounts(deps())).toBe(0);
    await world.standIn.payInvoice(subscription.id);
    expect((await row(owner.organizationId)).status).toBe('restricted');

    // Restricted for non-payment, then set to restricted again by the operator: now the operator's, and paying keeps it.
    const { owner: late, subscription: lateSubscription } = await paidOwner('late-and-abuse@checkout.test', '10k');
    await failRenewal(lateSubscription);
    world.app.clock.set('2027-01-01T00:00:00.000Z');
    expect(await restrictUnpaidAccounts(deps())).toBe(1);
    await admin('org:status', '--org', late.organizationId, '--status', 'restricted');
    await world.standIn.payInvoice(lateSubscription.id);
    expect((await row(late.organizationId)).status).toBe('restricted');

    const other = await paidOwner('upgrade-fails@checkout.test', '10k');
    const failedUpgrade = await world.standIn.sendEvent('invoice.payment_failed', {
      id: 'in_upgrade',
      object: 'invoice',
      customer: other.subscription.customer,
      billing_reason: 'subscription_update',
      parent: { subscription_details: { subscription: other.subscription.id } },
    });
    expect(JSON.parse(failedUpgrade.body!).outcome).toBe('ignored: not a renewal');
    expect(await row(other.owner.organizationId)).toMatchObject({ paymentFailedAt: null, paymentGraceUntil: null });
  });
});
