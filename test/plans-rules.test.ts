import { describe, expect, it } from 'vitest';
import { dailyCeiling, poolEndsAt } from '@/server/services/plans/ceiling';
import { isListShaped, LIST_SHAPED_MIN_ITEMS } from '@/server/services/plans/list-shape';
import { overageBudgetCents, overageHeadroom } from '@/server/services/plans/overage';
import { PLANS } from '@/server/services/plans/plans';
import { allot, sendingLimits, usedNow, type SendingAccount } from '@/server/services/plans/sending-limits';
import { elevatedReason } from '@/server/services/plans/standing';

const DAY = 86_400_000;
const now = new Date('2026-11-21T10:00:00.000Z');
const account = (values: Partial<SendingAccount> = {}): SendingAccount => ({
  plan: '10k',
  pendingPlan: null,
  pendingPlanAt: null,
  reviewed: false,
  overageEnabled: true,
  createdAt: new Date(now.getTime() - 60 * DAY),
  paidSince: new Date(now.getTime() - 60 * DAY),
  poolExitedAt: null,
  standingEvaluatedAt: now,
  busiestRecentDay: 0,
  elevatedReason: null,
  ...values,
});

describe('the plan table', () => {
  it('lets every paid plan send broadcasts, and Free not (the spec: POST /broadcasts/{id}/send needs a paid plan)', () => {
    expect(Object.values(PLANS).filter((plan) => !plan.sendsBroadcasts).map((plan) => plan.id)).toEqual(['free']);
  });
});

describe('overage stop point per plan', () => {
  // [plan, recipients allowed past the quota]: the cost of the next one would equal the price difference to the next volume.
  it.each([
    ['10k', 9_999],
    ['25k', 16_666],
    ['50k', 33_333],
    ['100k', 99_999],
    ['250k', 166_666],
    ['500k', 333_333],
    ['1m', 666_666],
    ['2m', 1_791_666],
  ] as const)('%s meters %i recipients past the quota', (id, headroom) => {
    const plan = PLANS[id];
    expect(overageHeadroom(plan)).toBe(headroom);
    const rate = plan.overagePer1000EurCents!;
    expect((headroom * rate) / 1000).toBeLessThan(overageBudgetCents(plan));
    expect(((headroom + 1) * rate) / 1000).toBeGreaterThanOrEqual(overageBudgetCents(plan));
    // The spec: between 0.66x and 1x of the allowance as extra headroom.
    expect(headroom / plan.monthlyEmails).toBeGreaterThanOrEqual(0.66);
    expect(headroom / plan.monthlyEmails).toBeLessThan(1);
  });

  it('has none on Free, and the top volume stops at its own price in overage', () => {
    expect(overageHeadroom(PLANS.free)).toBe(0);
    expect(overageBudgetCents(PLANS['2m'])).toBe(PLANS['2m'].priceEurCents);
  });

  it('lets only transactional sends use it: broadcasts stop at the quota', () => {
    expect(sendingLimits(account(), 'transactional', now).monthLimit).toBe(19_999);
    expect(sendingLimits(account(), 'broadcast', now).monthLimit).toBe(10_000);
    expect(sendingLimits(account({ overageEnabled: false }), 'transactional', now).monthLimit).toBe(10_000);
  });
});

describe('allotting room in order', () => {
  it('refuses by month, then day, then list allowance, and lets a later smaller request fit', () => {
    const limits = sendingLimits(account({ plan: 'free', overageEnabled: false }), 'transactional', now);
    const used = usedNow({ day: '2026-11-21', dayRecipients: 98, month: '2026-11-01', monthRecipients: 98, listRecipients: 0, overageNotifiedMonth: null }, limits);
    const result = allot(limits, used, [
      { recipients: 3, listShaped: false },
      { recipients: 2, listShaped: false },
      { recipients: 1, listShaped: false },
    ]);
    expect(result.refusals.map((r) => r?.appCode ?? null)).toEqual(['DAILY_LIMIT_EXCEEDED', null, 'DAILY_LIMIT_EXCEEDED']);
    expect(result.recipients).toBe(2);
  });

  it('counts a past day or month as zero', () => {
    const limits = sendingLimits(account(), 'transactional', now);
    expect(usedNow({ day: '2026-11-20', dayRecipients: 900, month: '2026-10-01', monthRecipients: 9_000, listRecipients: 7, overageNotifiedMonth: null }, limits)).toEqual({ day: 0, month: 0, list: 7 });
  });
});

describe('daily ceiling', () => {
  it('is 100 on Free at any age, halved to 50 while rates are elevated', () => {
    expect(dailyCeiling(PLANS.free, account({ plan: 'free' }), now).limit).toBe(100);
    expect(dailyCeiling(PLANS.free, account({ plan: 'free', elevatedReason: 'the bounce rate is 5 %' }), now)).toMatchObject({ limit: 50, halved: true });
  });

  it('ends the pool at the earlier of leaving by volume and 7 days after becoming paid', () => {
    const paidSince = new Date(now.getTime() - 2 * DAY);
    expect(poolEndsAt(account({ paidSince })).getTime()).toBe(paidSince.getTime() + 7 * DAY);
    expect(poolEndsAt(account({ paidSince, poolExitedAt: now })).getTime()).toBe(now.getTime());
  });

  it('never falls below the contact cap and is never unlimited', () => {
    for (const plan of Object.values(PLANS)) {
      if (plan.id === 'free') continue;
      const ceiling = dailyCeiling(plan, account({ plan: plan.id }), now);
      expect(ceiling.tier).toBe('usage-based');
      expect(ceiling.limit).toBeGreaterThanOrEqual(plan.contacts);
      expect(ceiling.limit).toBeGreaterThanOrEqual(Math.ceil(plan.monthlyEmails / 30));
      expect(Number.isFinite(ceiling.limit)).toBe(true);
    }
  });
});

describe('elevated rates', () => {
  it.each([
    [{ sent: 199, delivered: 150, bounced: 49, complained: 0 }, null],
    [{ sent: 200, delivered: 192, bounced: 8, complained: 0 }, null],
    [{ sent: 200, delivered: 191, bounced: 9, complained: 0 }, 'bounce rate is 4.5 %'],
    [{ sent: 10_000, delivered: 10_000, bounced: 0, complained: 8 }, null],
    [{ sent: 10_000, delivered: 10_000, bounced: 0, complained: 9 }, 'complaint rate is 0.09 %'],
  ])('%o → %s', (rates, reason) => {
    const found = elevatedReason(rates);
    if (reason === null) expect(found).toBeNull();
    else expect(found).toContain(reason);
  });
});

describe('list-shaped batches', () => {
  it(`needs ${LIST_SHAPED_MIN_ITEMS} items with one message`, () => {
    const same = { subject: 'News', html: '<p>x</p>' };
    expect(isListShaped(Array.from({ length: LIST_SHAPED_MIN_ITEMS - 1 }, () => same))).toBe(false);
    expect(isListShaped(Array.from({ length: LIST_SHAPED_MIN_ITEMS }, () => same))).toBe(true);
    expect(isListShaped(Array.from({ length: 50 }, (_, i) => ({ subject: `Receipt ${i}`, html: '<p>x</p>' })))).toBe(false);
    expect(isListShaped(Array.from({ length: LIST_SHAPED_MIN_ITEMS }, () => ({ templateId: 't1' })))).toBe(true);
    // One subject, bodies that differ in a field the others share: distinct messages.
    expect(isListShaped(Array.from({ length: 30 }, (_, i) => ({ subject: 'Receipt', html: '<p>x</p>', text: `order ${i}` })))).toBe(false);
    expect(isListShaped(Array.from({ length: 30 }, (_, i) => ({ subject: 'Receipt', html: `<p>${i % 3}</p>` })))).toBe(true);
    // Equal bodies built apart (as JSON.parse gives them) are one message; a missing text is an empty one.
    expect(isListShaped(Array.from({ length: LIST_SHAPED_MIN_ITEMS }, (_, i) => ({ subject: 'News', html: ['<p>', 'x</p>'].join(''), ...(i % 2 ? { text: '' } : {}) })))).toBe(true);
    expect(isListShaped([...Array.from({ length: 5 }, () => ({ templateId: 'News' })), ...Array.from({ length: 5 }, () => ({ subject: 'News' }))])).toBe(false);
  });
});
