import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changePlan } from '@/server/services/plans/changes';
import { quotePlanChange } from '@/server/services/plans/quote';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const deps = () => app.runtime.deps;

/** The quote, then the change itself at the same instant: the billing page's dialog must say what the change then does. */
async function quoteThenChange(organizationId: string, plan: string) {
  const { settlement, ...quote } = await quotePlanChange(deps(), organizationId, plan);
  const { change } = await changePlan(deps(), organizationId, plan);
  expect(quote).toEqual(change);
  // Without a payment provider, a customer's upgrade is settled by the operator's approval.
  expect(settlement).toBe(change.kind === 'upgrade' ? 'request' : null);
  return quote;
}

describe('a plan change quoted before it is made', () => {
  it('answers what changePlan then does: up with its prorated charge, down at the next month, back to cancel, again unchanged', async () => {
    const { organizationId } = await app.createOrg({ plan: '10k' });
    app.clock.set('2026-11-16T00:00:00.000Z');
    expect(await quoteThenChange(organizationId, '100k')).toMatchObject({ kind: 'upgrade', proratedChargeEurCents: 1350 });
    expect(await quoteThenChange(organizationId, '25k')).toMatchObject({ kind: 'downgrade', effectiveAt: new Date('2026-12-01T00:00:00.000Z') });
    expect(await quoteThenChange(organizationId, '100k')).toMatchObject({ kind: 'cancelled' });
    expect(await quoteThenChange(organizationId, '100k')).toMatchObject({ kind: 'unchanged' });
  });

  it('counts from the plan in force once a pending downgrade is due, written or not', async () => {
    const { organizationId } = await app.createOrg({ plan: '50k' });
    app.clock.set('2026-11-20T00:00:00.000Z');
    await changePlan(deps(), organizationId, '10k');
    app.clock.set('2026-12-01T00:00:00.000Z');
    // December has just begun: 10k is the plan, so 25k is an upgrade for the whole month.
    expect(await quoteThenChange(organizationId, '25k')).toMatchObject({ kind: 'upgrade', from: '10k', proratedChargeEurCents: 450 });
  });

  it('changes nothing', async () => {
    const { organizationId } = await app.createOrg({ plan: 'free' });
    await quotePlanChange(deps(), organizationId, '1m');
    expect((await quotePlanChange(deps(), organizationId, '1m')).from).toBe('free');
  });
});
