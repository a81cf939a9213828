import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { overageMeterReports, usageCounters } from '@/db/schema';
import { OPERATOR } from '@/server/services/audit/record';
import { stripeAccountOf } from '@/server/services/billing/accounts';
import { startCheckout } from '@/server/services/billing/checkout';
import { dueThousands, reportOverage } from '@/server/services/billing/overage-meter';
import { stripeOf } from '@/server/services/billing/stripe';
import { upgradeSubscription } from '@/server/services/billing/subscription-change';
import { setOverage } from '@/server/services/organizations/organizations';
import { PLANS } from '@/server/services/plans/plans';
import { sendingOrg } from './support/sending-org';
import { stripeWorld } from './support/stripe-world';

// Issue 33, item 5: metered overage reaches Stripe as meter events, one per 1,000 recipients past
// the quota (a partial thousand once the month is over), exactly once across retries and
// restarts, on the period's invoice.
// The official SDK talks to the loopback stand-in, which refuses a repeated identifier as Stripe does.

const METER_EVENTS = '/v1/billing/meter_events';

const world = stripeWorld({ now: '2026-11-20T10:00:00.000Z' });
const { deps } = world;
const DAY = 86_400_000;
const send = (key: string, to: string[]) => world.app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', to, subject: 'Receipt', text: 'Thank you' } });
const recipients = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.net`);
const meterCalls = () => world.standIn.calls.filter((call) => call.path === METER_EVENTS);
const ledger = async (organizationId: string) =>
  deps()
    .db.select({ month: overageMeterReports.month, thousand: overageMeterReports.thousand, valueMillicents: overageMeterReports.valueMillicents, identifier: overageMeterReports.identifier })
    .from(overageMeterReports)
    .where(eq(overageMeterReports.organizationId, organizationId))
    .orderBy(asc(overageMeterReports.month), asc(overageMeterReports.thousand));

/** A customer on `plan` through a paid Stripe checkout, with metered overage on and a sending domain. */
async function paidSender(plan: '10k' | '100k' = '10k') {
  const org = await sendingOrg(world.app, { plan: 'free', createdAt: new Date(world.app.clock.now().getTime() - 60 * DAY) });
  const row = await world.organization(org.organizationId);
  const { sessionId } = await startCheckout(deps(), stripeOf(deps())!, { id: row.id, name: row.name, ownerEmail: row.ownerEmail }, PLANS[plan]);
  const subscription = await world.payCheckout(sessionId, org.organizationId, plan);
  await setOverage(deps(), org.organizationId, true, OPERATOR);
  const customerId = (await stripeAccountOf(deps().db, org.organizationId))!.customerId;
  return { ...org, subscription, customerId };
}

/** Stands for the sends earlier this month: the counters as the store statement leaves them. */
async function primeMonth(organizationId: string, values: { monthRecipients: number; overageRecipients?: number; overageMillicents?: number }) {
  await deps()
    .db.update(usageCounters)
    .set({ day: '2026-11-19', dayRecipients: 0, monthRecipients: values.monthRecipients, monthOverageRecipients: values.overageRecipients ?? 0, monthOverageMillicents: values.overageMillicents ?? 0 })
    .where(eq(usageCounters.organizationId, organizationId));
}

describe('metered overage with Stripe', () => {
  it('puts the metered price on the subscription beside the plan, so Stripe bills what the meter sums', async () => {
    const sender = await paidSender();
    expect(sender.subscription.items.data.map((item: { price: { id: string } }) => item.price.id)).toEqual(['price_10k', 'price_overage']);
  });

  it('reports each thousand past the quota once, as it fills, worth its metered cost in thousandths of a cent', async () => {
    const sender = await paidSender('10k');
    await primeMonth(sender.organizationId, { monthRecipients: 9_999 });
    expect((await send(sender.apiKey, ['quota@example.net'])).status).toBe(200);
    expect((await send(sender.apiKey, ['past@example.net'])).status).toBe(200);
    // One recipient past the quota: a partial thousand, billed at the period's end, not now.
    expect(await reportOverage(deps())).toBe(0);
    expect(meterCalls()).toEqual([]);

    // 999 past the quota sent earlier (as the counters say); two more recipients fill the first thousand.
    await primeMonth(sender.organizationId, { monthRecipients: 10_999, overageRecipients: 999, overageMillicents: 999 * 45 });
    expect((await send(sender.apiKey, recipients(2, 'more'))).status).toBe(200);
    const [counters] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, sender.organizationId));
    expect(counters).toMatchObject({ monthOverageRecipients: 1_001, monthOverageMillicents: 1_001 * 45 });
    expect(await reportOverage(deps())).toBe(1);
    const identifier = `overage:${sender.organizationId}:2026-11:1`;
    expect(world.standIn.meterEvents).toEqual([
      expect.objectContaining({
        event_name: 'eumail_overage_millicents',
        identifier,
        timestamp: Date.parse('2026-11-20T10:00:00.000Z') / 1000,
        // EUR 0.45 per 1,000 at EUR 0.00001 a unit.
        payload: { stripe_customer_id: sender.customerId, value: '45000' },
      }),
    ]);
    expect(await ledger(sender.organizationId)).toEqual([{ month: '2026-11-01', thousand: 1, valueMillicents: 45_000, identifier }]);

    // Nothing new: a sweep sends nothing, however often it runs.
    expect(await reportOverage(deps())).toBe(0);
    expect(await reportOverage(deps())).toBe(0);
    expect(meterCalls()).toHaveLength(1);
  });

  it('bills a thousand once when the ledger was lost after Stripe took it: Stripe refuses the repeated identifier, which counts as reported', async () => {
    const sender = await paidSender('100k');
    await primeMonth(sender.organizationId, { monthRecipients: 102_500, overageRecipients: 2_500, overageMillicents: 2_500 * 39 });
    expect(await reportOverage(deps())).toBe(2);
    expect(world.standIn.meterEvents.map((event) => event.payload.value)).toEqual(['39000', '39000']);

    // A crash between Stripe's answer and the ledger write, stood in for by deleting the rows.
    await deps().db.delete(overageMeterReports).where(eq(overageMeterReports.organizationId, sender.organizationId));
    expect(await reportOverage(deps())).toBe(2);
    expect(meterCalls()).toHaveLength(4);
    expect(world.standIn.meterEvents).toHaveLength(2);
    expect((await ledger(sender.organizationId)).map((row) => row.thousand)).toEqual([1, 2]);
  });

  it('leaves a thousand Stripe did not take for the next sweep, and goes on in order from there', async () => {
    const sender = await paidSender('10k');
    await primeMonth(sender.organizationId, { monthRecipients: 11_000, overageRecipients: 1_000, overageMillicents: 1_000 * 45 });
    expect(await reportOverage(deps())).toBe(1);

    // The second thousand meets an outage the SDK's two retries do not outlast: nothing is recorded.
    await primeMonth(sender.organizationId, { monthRecipients: 12_200, overageRecipients: 2_200, overageMillicents: 2_200 * 45 });
    world.standIn.failNext(METER_EVENTS, 3);
    expect(await reportOverage(deps())).toBe(0);
    expect((await ledger(sender.organizationId)).map((row) => row.thousand)).toEqual([1]);
    expect(world.standIn.meterEvents).toHaveLength(1);

    expect(await reportOverage(deps())).toBe(1);
    expect((await ledger(sender.organizationId)).map((row) => row.thousand)).toEqual([1, 2]);
    expect(world.standIn.meterEvents.map((event) => event.identifier)).toEqual([`overage:${sender.organizationId}:2026-11:1`, `overage:${sender.organizationId}:2026-11:2`]);
  });

  it("reports a month's partial thousand once the month is over, dated on its last second, so it is on that month's invoice", async () => {
    const sender = await paidSender('10k');
    await primeMonth(sender.organizationId, { monthRecipients: 10_000 });
    world.app.clock.set('2026-11-30T23:59:58.000Z');
    await deps().db.update(usageCounters).set({ day: '2026-11-29' }).where(eq(usageCounters.organizationId, sender.organizationId));
    expect((await send(sender.apiKey, recipients(3, 'late'))).status).toBe(200);

    // Midnight passes; a December send rolls the counters over (November's overage moves to previous_month).
    world.app.clock.set('2026-12-01T00:00:30.000Z');
    expect((await send(sender.apiKey, ['december@example.net'])).status).toBe(200);
    const [counters] = await deps().db.select().from(usageCounters).where(eq(usageCounters.organizationId, sender.organizationId));
    expect(counters).toMatchObject({ month: '2026-12-01', monthOverageRecipients: 0, previousMonth: '2026-11-01', previousMonthOverageRecipients: 3 });
    // A send that reserved at 23:59:59.999 may still be committing: the month settles for five minutes first.
    expect(await reportOverage(deps())).toBe(0);

    world.app.clock.set('2026-12-01T00:05:30.000Z');
    expect(await reportOverage(deps())).toBe(1);
    expect(world.standIn.meterEvents).toEqual([
      expect.objectContaining({
        identifier: `overage:${sender.organizationId}:2026-11:1`,
        timestamp: Date.parse('2026-11-30T23:59:59.000Z') / 1000,
        payload: { stripe_customer_id: sender.customerId, value: String(3 * 45) },
      }),
    ]);
    expect(await reportOverage(deps())).toBe(0);
  });

  it('closes a month the counters have not rolled past yet (no send since midnight) the same way, full thousands and the rest', async () => {
    const sender = await paidSender('100k');
    await primeMonth(sender.organizationId, { monthRecipients: 102_500, overageRecipients: 2_500, overageMillicents: 2_500 * 39 });
    expect(await reportOverage(deps())).toBe(2);
    world.app.clock.set('2026-12-01T06:00:00.000Z');
    expect(await reportOverage(deps())).toBe(1);
    expect(world.standIn.meterEvents.map((event) => [event.identifier.split(':').slice(2).join(':'), event.payload.value, event.timestamp])).toEqual([
      ['2026-11:1', '39000', Date.parse('2026-11-20T10:00:00.000Z') / 1000],
      ['2026-11:2', '39000', Date.parse('2026-11-20T10:00:00.000Z') / 1000],
      ['2026-11:3', '19500', Date.parse('2026-11-30T23:59:59.000Z') / 1000],
    ]);
    // What Stripe sums is what was metered: 2,500 recipients at EUR 0.39 per 1,000.
    expect((await ledger(sender.organizationId)).reduce((total, row) => total + row.valueMillicents, 0)).toBe(2_500 * 39);
  });

  it('reports nothing for an organization without a live subscription (a paid plan the operator set is billed by the operator)', async () => {
    const byOperator = await sendingOrg(world.app, { plan: '10k', createdAt: new Date(world.app.clock.now().getTime() - 60 * DAY) });
    await setOverage(deps(), byOperator.organizationId, true, OPERATOR);
    await primeMonth(byOperator.organizationId, { monthRecipients: 12_500, overageRecipients: 2_500, overageMillicents: 2_500 * 45 });
    expect(await reportOverage(deps())).toBe(0);
    expect(meterCalls()).toEqual([]);
  });
});

describe('the thousands a month owes', () => {
  const month = { recipients: 0, millicents: 0, reported: 0, reportedMillicents: 0 };
  it('are its full thousands while it runs, and the rest once it is over', () => {
    expect(dueThousands({ ...month, recipients: 999, millicents: 999 * 45 }, false)).toEqual([]);
    expect(dueThousands({ ...month, recipients: 999, millicents: 999 * 45 }, true)).toEqual([{ thousand: 1, millicents: 999 * 45 }]);
    expect(dueThousands({ ...month, recipients: 2_000, millicents: 2_000 * 45 }, true)).toEqual([
      { thousand: 1, millicents: 45_000 },
      { thousand: 2, millicents: 45_000 },
    ]);
    expect(dueThousands({ recipients: 2_000, millicents: 90_000, reported: 2, reportedMillicents: 90_000 }, true)).toEqual([]);
  });

  it('never report more than was metered when an upgrade lowered the rate mid-month', () => {
    // The first thousand at EUR 0.45 was reported; then 1,000 more at EUR 0.39 after an upgrade.
    const due = dueThousands({ recipients: 2_000, millicents: 45_000 + 39_000, reported: 1, reportedMillicents: 45_000 }, false);
    expect(due).toEqual([{ thousand: 2, millicents: 39_000 }]);
    // A rate that does not divide evenly: rounded down as it goes, the rest with the month's last event.
    const uneven = dueThousands({ recipients: 1_500, millicents: 1_000 * 45 + 500 * 39 + 1, reported: 0, reportedMillicents: 0 }, true);
    expect(uneven.reduce((total, one) => total + one.millicents, 0)).toBe(1_000 * 45 + 500 * 39 + 1);
    expect(uneven.map((one) => one.thousand)).toEqual([1, 2]);
  });
});

describe('the overage item on subscriptions made before it was configured', () => {
  it('is added on the next plan change; a subscription that has it keeps it as it is', async () => {
    const sender = await paidSender('10k');
    const held = world.standIn.subscriptions.get(sender.subscription.id)!;
    held.items.data = held.items.data.filter((item: { price: { id: string } }) => item.price.id !== 'price_overage');
    await upgradeSubscription(deps(), stripeOf(deps())!, sender.subscription.id, '25k');
    const planItem = held.items.data[0].id;
    expect(world.standIn.calls.at(-1)!.params.items).toEqual({ 0: { id: planItem, price: 'price_25k' }, 1: { price: 'price_overage' } });
    expect(held.items.data.map((item: { price: { id: string } }) => item.price.id)).toEqual(['price_25k', 'price_overage']);

    await upgradeSubscription(deps(), stripeOf(deps())!, sender.subscription.id, '50k');
    expect(world.standIn.calls.at(-1)!.params.items).toEqual({ 0: { id: planItem, price: 'price_50k' } });
  });
});
