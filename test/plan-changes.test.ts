import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { organizations } from '@/db/schema';
import { functionsFor } from '@/inngest/functions';
import { parseAdminArgs, runAdminCommand } from '@/server/admin/commands';
import { dashboardContext } from '@/server/auth/session-context';
import { apiKeyContext } from '@/server/http/api-context';
import { appRouter } from '@/server/routers';
import { SWEEPS } from '@/server/runner/sweeps';
import { describeOrganization } from '@/server/services/organizations/organizations';
import { applyDuePlanChanges, changePlan } from '@/server/services/plans/changes';
import { effectivePlan } from '@/server/services/plans/effective';
import { createCallerFactory } from '@/server/trpc/init';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const deps = () => app.runtime.deps;
const admin = (...argv: string[]) => {
  const { command, args } = parseAdminArgs(argv);
  return runAdminCommand(deps(), command, args) as Promise<Record<string, any>>;
};
const row = async (id: string) => (await deps().db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const createKey = (key: string) => app.request('POST', '/api/api-keys', { key, body: { name: 'Another' } });

const LAST_MS_OF_NOVEMBER = '2026-11-30T23:59:59.999Z';
const FIRST_OF_DECEMBER = '2026-12-01T00:00:00.000Z';

describe('the plan in force', () => {
  it('counts a pending change whose time has come, from its first millisecond', () => {
    const organization = { plan: '100k', pendingPlan: '10k', pendingPlanAt: new Date(FIRST_OF_DECEMBER) };
    expect(effectivePlan(organization, new Date(LAST_MS_OF_NOVEMBER)).id).toBe('100k');
    expect(effectivePlan(organization, new Date(FIRST_OF_DECEMBER)).id).toBe('10k');
    expect(effectivePlan({ plan: '100k', pendingPlan: null, pendingPlanAt: null }, new Date(FIRST_OF_DECEMBER)).id).toBe('100k');
  });
});

describe('moving up', () => {
  it('takes effect at once and charges the price difference for the rest of the month, by milliseconds', async () => {
    const { organizationId } = await app.createOrg({ plan: '10k' });
    const paidSince = (await row(organizationId)).paidSince;
    // Half of November (30 days) left: half of EUR 36 - EUR 9.
    app.clock.set('2026-11-16T00:00:00.000Z');
    const moved = await admin('org:plan', '--org', organizationId, '--plan', '100k');
    expect(moved).toMatchObject({ organizationId, plan: '100k', pendingPlan: null, pendingPlanAt: null });
    expect(moved.change).toEqual({ kind: 'upgrade', effectiveAt: '2026-11-16T00:00:00.000Z', proratedChargeEurCents: 1350 });
    // Already paying: the new-account pool does not start again.
    expect((await row(organizationId)).paidSince).toEqual(paidSince);
  });

  it('rounds the prorated charge to the cent', async () => {
    const { organizationId } = await app.createOrg({ plan: '25k' });
    // 9 days 14 hours of 30 days left, of EUR 21 - EUR 13.50: 239.58 cents.
    app.clock.set('2026-11-21T10:00:00.000Z');
    expect((await changePlan(deps(), organizationId, '50k')).change).toEqual({
      kind: 'upgrade', from: '25k', to: '50k', effectiveAt: new Date('2026-11-21T10:00:00.000Z'), proratedChargeEurCents: 240,
    });
  });

  it('from Free starts paid_since now, in a month of any length', async () => {
    const { organizationId } = await app.createOrg({ plan: 'free' });
    expect((await row(organizationId)).paidSince).toBeNull();
    // Half of February 2027 (28 days) left: half of EUR 9.
    app.clock.set('2027-02-15T00:00:00.000Z');
    const moved = await admin('org:plan', '--org', organizationId, '--plan', '10k');
    expect(moved.change).toEqual({ kind: 'upgrade', effectiveAt: '2027-02-15T00:00:00.000Z', proratedChargeEurCents: 450 });
    expect((await row(organizationId)).paidSince).toEqual(new Date('2027-02-15T00:00:00.000Z'));
  });

  it('drops a pending downgrade', async () => {
    const { organizationId } = await app.createOrg({ plan: '100k' });
    await admin('org:plan', '--org', organizationId, '--plan', '10k');
    const moved = await admin('org:plan', '--org', organizationId, '--plan', '250k');
    expect(moved).toMatchObject({ plan: '250k', pendingPlan: null, pendingPlanAt: null, change: { kind: 'upgrade', proratedChargeEurCents: 1246 } });
  });
});

describe('moving down', () => {
  it('is recorded and applies at the first instant of the next UTC month, before the sweep writes it', async () => {
    const { organizationId, apiKey } = await app.createOrg({ plan: '10k' });
    const paidSince = (await row(organizationId)).paidSince;
    const moved = await admin('org:plan', '--org', organizationId, '--plan', 'free');
    expect(moved).toMatchObject({ organizationId, plan: '10k', pendingPlan: 'free', pendingPlanAt: FIRST_OF_DECEMBER });
    expect(moved.change).toEqual({ kind: 'downgrade', effectiveAt: FIRST_OF_DECEMBER });
    expect(await describeOrganization(deps(), organizationId)).toMatchObject({
      plan: { id: '10k' },
      pendingPlan: { id: 'free', label: 'Free', monthlyEmails: 3_000, effectiveAt: FIRST_OF_DECEMBER },
    });

    // The last millisecond of November is still the 10k plan: keys are unlimited.
    app.clock.set(LAST_MS_OF_NOVEMBER);
    expect((await createKey(apiKey)).status).toBe(201);
    expect(await applyDuePlanChanges(deps())).toBe(0);

    // The first of December is Free, written or not: a third live key is refused, the two stay.
    app.clock.set(FIRST_OF_DECEMBER);
    const refused = await createKey(apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.stringMatching(/Free plan allows 1 live API key/), code: 'PLAN_LIMIT_EXCEEDED' });
    expect((await app.request('GET', '/api/api-keys', { key: apiKey })).body.data).toHaveLength(2);
    expect(await describeOrganization(deps(), organizationId)).toMatchObject({ plan: { id: 'free' }, pendingPlan: null });

    expect(await applyDuePlanChanges(deps())).toBe(1);
    expect(await admin('org:show', '--org', organizationId)).toMatchObject({ plan: 'free', pendingPlan: null, pendingPlanAt: null });
    expect(await applyDuePlanChanges(deps())).toBe(0);
    // paid_since stays as history; only moving up from Free sets it again.
    expect((await row(organizationId)).paidSince).toEqual(paidSince);
  });

  it('is replaced by a later downgrade, and cancelled by choosing the current plan again', async () => {
    const { organizationId } = await app.createOrg({ plan: '100k' });
    await admin('org:plan', '--org', organizationId, '--plan', '50k');
    expect(await admin('org:plan', '--org', organizationId, '--plan', '10k')).toMatchObject({ plan: '100k', pendingPlan: '10k', change: { kind: 'downgrade' } });
    app.clock.advance(60_000);
    const cancelled = await admin('org:plan', '--org', organizationId, '--plan', '100k');
    expect(cancelled).toMatchObject({ plan: '100k', pendingPlan: null, pendingPlanAt: null });
    expect(cancelled.change).toEqual({ kind: 'cancelled', effectiveAt: app.clock.now().toISOString() });
    expect((await admin('org:plan', '--org', organizationId, '--plan', '100k')).change.kind).toBe('unchanged');
    app.clock.set(FIRST_OF_DECEMBER);
    expect(await applyDuePlanChanges(deps())).toBe(0);
    expect((await row(organizationId)).plan).toBe('100k');
  });

  it('applies at once with --now (operators)', async () => {
    const { organizationId } = await app.createOrg({ plan: '100k' });
    const moved = await admin('org:plan', '--org', organizationId, '--plan', '10k', '--now');
    expect(moved).toMatchObject({ plan: '10k', pendingPlan: null, pendingPlanAt: null });
    expect(moved.change).toEqual({ kind: 'downgrade', effectiveAt: app.clock.now().toISOString() });
    // --now changes nothing for a move up, which is immediate anyway.
    expect(await admin('org:plan', '--org', organizationId, '--plan', '25k', '--now')).toMatchObject({ plan: '25k', change: { kind: 'upgrade' } });
  });

  it('once due, is the plan a new change starts from even before the sweep', async () => {
    const { organizationId } = await app.createOrg({ plan: '100k' });
    await admin('org:plan', '--org', organizationId, '--plan', 'free');
    // Mid-December, unswept: the organization is on Free, so 10k is a move up from Free.
    app.clock.set('2026-12-16T12:00:00.000Z');
    const moved = await admin('org:plan', '--org', organizationId, '--plan', '10k');
    expect(moved).toMatchObject({ plan: '10k', pendingPlan: null, change: { kind: 'upgrade', proratedChargeEurCents: Math.round(900 * (15.5 / 31)) } });
    expect((await row(organizationId)).paidSince).toEqual(new Date('2026-12-16T12:00:00.000Z'));
  });
});

describe('the sweep of due plan changes', () => {
  it('runs every 5 s in the embedded runner and as an Inngest cron', async () => {
    expect(SWEEPS.find((sweep) => sweep.kind === 'plan-changes')).toMatchObject({ intervalMs: 5_000 });
    const due = await app.createOrg({ plan: '50k' });
    const later = await app.createOrg({ plan: '50k' });
    await admin('org:plan', '--org', due.organizationId, '--plan', '25k');
    app.clock.set('2026-12-10T00:00:00.000Z');
    await admin('org:plan', '--org', later.organizationId, '--plan', '25k');
    const [fn] = functionsFor('plan-changes', () => deps());
    const { result } = await new InngestTestEngine({ function: fn! }).execute({ events: [{ name: 'inngest/scheduled.timer', data: {} }] });
    expect(result).toEqual({ applied: 1, restricted: 0 });
    expect((await row(due.organizationId)).plan).toBe('25k');
    expect(await row(later.organizationId)).toMatchObject({ plan: '50k', pendingPlan: '25k', pendingPlanAt: new Date('2027-01-01T00:00:00.000Z') });
  });
});

describe('new organizations', () => {
  it('on a paid plan have paid since they were created; on Free not', async () => {
    const paid = await app.createOrg({ plan: '10k', createdAt: new Date('2026-01-05T00:00:00Z') });
    const free = await app.createOrg({ plan: 'free' });
    expect((await row(paid.organizationId)).paidSince).toEqual(new Date('2026-01-05T00:00:00Z'));
    expect((await row(free.organizationId)).paidSince).toBeNull();
  });
});

describe('the dashboard', () => {
  const createCaller = createCallerFactory(appRouter);
  async function signUp(email: string): Promise<Headers> {
    const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({ name: 'Ada', email, password: 'correct horse battery' }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return new Headers({ cookie: response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') });
  }
  const callerFor = (headers: Headers) => createCaller(dashboardContext(deps(), app.runtime.auth, headers, 'req-1', () => {}));

  it('lets the signed-in owner ask to move up (the operator grants it), move down at the end of the month, and shows what is pending', async () => {
    const owner = callerFor(await signUp('owner@plans.test'));
    app.clock.set('2026-11-16T00:00:00.000Z');
    const asked = await owner.organization.changePlan({ plan: '10k' });
    expect(asked.change).toBeNull();
    expect(asked.request).toMatchObject({ plan: '10k', from: 'free' });
    expect(asked.organization).toMatchObject({ plan: { id: 'free' }, pendingPlan: null });
    const organizationId = asked.organization.id;
    expect((await changePlan(deps(), organizationId, '10k')).change).toMatchObject({ kind: 'upgrade', from: 'free', to: '10k', proratedChargeEurCents: 450 });
    const down = await owner.organization.changePlan({ plan: 'free' });
    expect(down.change).toEqual({ kind: 'downgrade', from: '10k', to: 'free', effectiveAt: FIRST_OF_DECEMBER });
    expect(await owner.organization.current()).toMatchObject({ plan: { id: '10k' }, pendingPlan: { id: 'free', effectiveAt: FIRST_OF_DECEMBER } });
    await expect(owner.organization.changePlan({ plan: 'gold' as never })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('refuses an API key, and the dashboard in test mode', async () => {
    const headers = await signUp('switch@plans.test');
    const test = new Headers({ cookie: `${headers.get('cookie')}; eumail_mode=test` });
    await expect(callerFor(test).organization.changePlan({ plan: '10k' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const { apiKey } = await app.createOrg({ plan: 'free' });
    const byKey = createCaller(apiKeyContext(deps(), (name) => (name === 'authorization' ? `Bearer ${apiKey}` : undefined), 'req-2', () => {}));
    await expect(byKey.organization.changePlan({ plan: '10k' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/owner/) });
    expect((await callerFor(headers).organization.current()).plan.id).toBe('free');
  });
});
