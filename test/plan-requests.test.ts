import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { auditEvents, organizations, planChangeRequests } from '@/db/schema';
import { parseAdminArgs, runAdminCommand } from '@/server/admin/commands';
import { appRouter } from '@/server/routers';
import { PLANS } from '@/server/services/plans/plans';
import { describeUsage } from '@/server/services/plans/usage';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, makeMemberOf, signUpPerson, type DashboardPerson } from './support/dashboard-session';

// Issue 33, item 7: without a payment provider, no path lets a customer raise a limit for free.
// An upgrade asked for in the dashboard is a request the operator grants with org:plan.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  app.clock.set('2026-11-16T00:00:00.000Z');
});

const deps = () => app.runtime.deps;
const call = (person: { cookie: string }, kind: 'query' | 'mutation', path: string, input: unknown = {}) => dashboardCall(app, person.cookie, kind, path, input);
const admin = (...argv: string[]) => {
  const { command, args } = parseAdminArgs(argv);
  return runAdminCommand(deps(), command, args) as Promise<any>;
};
const row = async (id: string) => (await deps().db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const actions = async (id: string) =>
  (await deps().db.select({ action: auditEvents.action, details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.organizationId, id))).map((r) => r.action);

/** Everything a customer could want raised: the plan and what it allows, as the service applies them. */
async function limitsOf(organizationId: string) {
  const usage = await describeUsage(deps(), organizationId);
  const organization = await row(organizationId);
  return {
    plan: usage.plan.id,
    status: usage.status,
    quota: usage.month.quota,
    stopsAt: usage.overage.stopsAt,
    ceiling: usage.today.ceiling,
    allowance: usage.review.allowance,
    reviewed: usage.review.reviewed,
    caps: Object.fromEntries(Object.entries(usage.caps).map(([name, cap]) => [name, cap.limit])),
    rateLimitOverride: organization.rateLimitOverride,
    paidSince: organization.paidSince,
  };
}

describe('an upgrade without a payment provider', () => {
  it('is a request: the plan stays, the operator lists it and grants it with org:plan', async () => {
    const owner = await signUpPerson(app, 'owner@requests.test');
    const before = await limitsOf(owner.organizationId);

    const quote = await call(owner, 'query', 'usage.quotePlanChange', { plan: '100k' });
    expect(quote.data).toMatchObject({ kind: 'upgrade', from: 'free', to: '100k', settlement: 'request' });

    const asked = await call(owner, 'mutation', 'organization.changePlan', { plan: '100k' });
    expect(asked.status).toBe(200);
    expect(asked.data.change).toBeNull();
    expect(asked.data.request).toMatchObject({ plan: '100k', label: PLANS['100k'].label, from: 'free', requestedBy: 'owner@requests.test', requestedAt: '2026-11-16T00:00:00.000Z' });
    expect(asked.data.organization.plan.id).toBe('free');
    expect(await limitsOf(owner.organizationId)).toEqual(before);
    expect((await call(owner, 'query', 'organization.planRequest')).data).toMatchObject({ plan: '100k' });

    // A second choice replaces the first: one open request per organization.
    await call(owner, 'mutation', 'organization.changePlan', { plan: '10k' });
    const listed = await admin('org:requests');
    expect(listed).toEqual([
      {
        requestId: expect.any(String),
        organizationId: owner.organizationId,
        name: expect.any(String),
        ownerEmail: 'owner@requests.test',
        currentPlan: 'free',
        requestedPlan: '10k',
        requestedBy: 'owner@requests.test',
        requestedAt: '2026-11-16T00:00:00.000Z',
        approve: `npm run admin -- org:plan --org ${owner.organizationId} --plan 10k`,
      },
    ]);
    const rows = await deps().db.select().from(planChangeRequests).where(eq(planChangeRequests.organizationId, owner.organizationId));
    expect(rows.map((r) => [r.plan, r.resolution])).toEqual(expect.arrayContaining([['100k', 'superseded'], ['10k', null]]));

    const granted = await admin('org:plan', '--org', owner.organizationId, '--plan', '10k');
    expect(granted).toMatchObject({ plan: '10k', change: { kind: 'upgrade', proratedChargeEurCents: 450 } });
    expect(await admin('org:requests')).toEqual([]);
    expect((await call(owner, 'query', 'organization.planRequest')).data).toBeNull();
    const [closed] = await deps().db.select().from(planChangeRequests).where(and(eq(planChangeRequests.organizationId, owner.organizationId), eq(planChangeRequests.plan, '10k')));
    expect(closed).toMatchObject({ resolution: 'approved', resolvedAt: new Date('2026-11-16T00:00:00.000Z') });
    expect(await actions(owner.organizationId)).toEqual(expect.arrayContaining(['organization.plan_requested', 'organization.plan_changed']));
  });

  it('an operator choosing another plan closes the request as overridden', async () => {
    const owner = await signUpPerson(app, 'over@requests.test');
    await call(owner, 'mutation', 'organization.changePlan', { plan: '50k' });
    await admin('org:plan', '--org', owner.organizationId, '--plan', '25k');
    const [request] = await deps().db.select().from(planChangeRequests).where(eq(planChangeRequests.organizationId, owner.organizationId));
    expect(request!.resolution).toBe('overridden');
  });

  it('the customer withdraws it; withdrawing again is NOT_FOUND', async () => {
    const owner = await signUpPerson(app, 'withdraw@requests.test');
    await call(owner, 'mutation', 'organization.changePlan', { plan: '10k' });
    expect((await call(owner, 'mutation', 'organization.withdrawPlanRequest')).data).toEqual({ withdrawn: true });
    expect(await admin('org:requests')).toEqual([]);
    expect((await call(owner, 'query', 'organization.planRequest')).data).toBeNull();
    const again = await call(owner, 'mutation', 'organization.withdrawPlanRequest');
    expect(again.status).toBe(404);
    expect({ code: again.body.error?.data?.envelope?.code, message: again.body.error?.message }).toEqual({ code: 'NOT_FOUND', message: expect.stringMatching(/Plan change request/) });
    expect(await actions(owner.organizationId)).toEqual(expect.arrayContaining(['organization.plan_requested', 'organization.plan_request_withdrawn']));
    expect((await row(owner.organizationId)).plan).toBe('free');
  });

  it('a billing member may ask and withdraw; an admin or a developer may not', async () => {
    const owner = await signUpPerson(app, 'boss@requests.test');
    const people: Record<string, DashboardPerson> = {};
    for (const role of ['billing', 'admin', 'developer'] as const) {
      people[role] = await signUpPerson(app, `${role}@requests.test`);
      await makeMemberOf(app, people[role]!, owner.organizationId, role);
    }
    expect((await call(people.admin!, 'mutation', 'organization.changePlan', { plan: '10k' })).status).toBe(403);
    expect((await call(people.developer!, 'mutation', 'organization.changePlan', { plan: '10k' })).status).toBe(403);
    expect((await call(people.billing!, 'mutation', 'organization.changePlan', { plan: '10k' })).data.request).toMatchObject({ requestedBy: 'billing@requests.test' });
    expect((await call(people.admin!, 'mutation', 'organization.withdrawPlanRequest')).status).toBe(403);
    expect((await call(people.developer!, 'query', 'organization.planRequest')).data).toMatchObject({ plan: '10k' });
    expect((await call(people.billing!, 'mutation', 'organization.withdrawPlanRequest')).status).toBe(200);
  });

  it('moving down still applies at the end of the month, and replaces an open request', async () => {
    const owner = await signUpPerson(app, 'down@requests.test');
    await admin('org:plan', '--org', owner.organizationId, '--plan', '50k');
    await call(owner, 'mutation', 'organization.changePlan', { plan: '100k' });
    const down = await call(owner, 'mutation', 'organization.changePlan', { plan: '10k' });
    expect(down.data.change).toEqual({ kind: 'downgrade', from: '50k', to: '10k', effectiveAt: '2026-12-01T00:00:00.000Z' });
    expect(down.data.request).toBeNull();
    expect(down.data.organization).toMatchObject({ plan: { id: '50k' }, pendingPlan: { id: '10k' } });
    expect(await admin('org:requests')).toEqual([]);
    // Keeping the current plan still cancels the pending downgrade.
    expect((await call(owner, 'mutation', 'organization.changePlan', { plan: '50k' })).data.change.kind).toBe('cancelled');
  });
});

/** The router's procedures that write a plan or a limit, found in the services they import. */
const LIMIT_WRITERS = /\b(changePlan|changePlanAsOwner|withdrawPlanRequest|setOverage|setStatus|setReviewed|setRateLimit|reviewOrganization|applyDuePlanChanges)\b/;

describe('no path raises a limit for free', () => {
  it('only the organization and usage routers reach a service that writes a plan or a limit', () => {
    const routers = readdirSync('server/routers', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const writers = routers.filter((file) =>
      readFileSync(`server/routers/${file}`, 'utf8')
        .split('\n')
        .some((line) => line.startsWith('import') && LIMIT_WRITERS.test(line)),
    );
    expect(writers.sort()).toEqual(['organizations.ts', 'usage.ts']);
    // And of theirs, these are the mutations: each is walked below.
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    const mutations = Object.entries(procedures)
      .filter(([path, procedure]) => (path.startsWith('organization.') || path.startsWith('usage.')) && procedure._def.type === 'mutation')
      .map(([path]) => path);
    expect(mutations.sort()).toEqual([
      'organization.cancelDeletion',
      'organization.changePlan',
      'organization.leave',
      'organization.rename',
      'organization.requestDeletion',
      'organization.resendConfirmation',
      'organization.resendNotificationLink',
      'organization.resetNotificationAddress',
      'organization.setNotificationAddress',
      'organization.withdrawPlanRequest',
      'usage.setOverage',
    ]);
  });

  it('every plan, the overage switch and a withdrawal, by owner and billing member, leave a Free account as it was', async () => {
    const owner = await signUpPerson(app, 'walker@requests.test');
    const billing = await signUpPerson(app, 'payer@requests.test');
    await makeMemberOf(app, billing, owner.organizationId, 'billing');
    const before = await limitsOf(owner.organizationId);
    for (const person of [owner, billing]) {
      for (const plan of Object.keys(PLANS)) {
        const answer = await call(person, 'mutation', 'organization.changePlan', { plan });
        expect(answer.status, plan).toBe(200);
        expect(await limitsOf(owner.organizationId), plan).toEqual(before);
      }
      for (const enabled of [true, false, true]) {
        expect((await call(person, 'mutation', 'usage.setOverage', { enabled })).status).toBe(200);
        expect(await limitsOf(owner.organizationId)).toEqual(before);
      }
      await call(person, 'mutation', 'organization.withdrawPlanRequest');
      await call(person, 'mutation', 'organization.resendConfirmation');
      // The settings page's mutations (docs/organization-settings.md): none of them touches a limit.
      await call(person, 'mutation', 'organization.rename', { name: 'Walker & Co' });
      await call(person, 'mutation', 'organization.setNotificationAddress', { email: 'notices@requests.test' });
      await call(person, 'mutation', 'organization.resendNotificationLink');
      await call(person, 'mutation', 'organization.resetNotificationAddress');
      expect(await limitsOf(owner.organizationId)).toEqual(before);
    }
    // A deletion asked for and taken back leaves the limits as they were.
    expect((await call(owner, 'mutation', 'organization.requestDeletion', { confirmName: 'Walker & Co' })).status).toBe(200);
    expect((await call(owner, 'mutation', 'organization.cancelDeletion')).status).toBe(200);
    expect((await call(billing, 'mutation', 'organization.leave')).status).toBe(200);
    expect(await limitsOf(owner.organizationId)).toEqual(before);
  });

  it('every REST route, called with a Free organization full_access key, leaves its limits as they were', async () => {
    const { organizationId, apiKey } = await app.createOrg({ plan: 'free' });
    // The operator's allowance, so that the walk meets each route's own answer, not RATE_LIMITED.
    await admin('org:rate-limit', '--org', organizationId, '--limit', '100000');
    const before = await limitsOf(organizationId);
    const document = (await app.request('GET', '/docs/openapi.json')).body;
    const base = new URL(document.servers?.[0]?.url ?? '/api', app.url).pathname.replace(/\/$/, '');
    const routes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') })),
    );
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      for (const body of [{}, { plan: '2m', enabled: true, overage_enabled: true, status: 'active', limit: 100000 }]) {
        const response = await app.request(route.method, `${base}${route.path}`, { key: apiKey, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : body });
        expect(response.status, `${route.method} ${route.path}`).toBeLessThan(500);
        expect(response.status, `${route.method} ${route.path}`).not.toBe(429);
      }
    }
    expect(await limitsOf(organizationId)).toEqual(before);
    // The plain routes outside the OpenAPI document that could move a plan: Stripe's webhook
    // (without Stripe configured it is not there; with it, test/billing-checkout.test.ts refuses
    // unsigned events), posted a paid checkout naming this organization.
    const forged = JSON.stringify({ id: 'evt_forged', type: 'checkout.session.completed', created: 1, data: { object: { mode: 'subscription', payment_status: 'paid', metadata: { organizationId, plan: '2m' } } } });
    for (const headers of [{}, { 'stripe-signature': 't=1,v1=00' }] as Array<Record<string, string>>) {
      const response = await app.request('POST', '/stripe/webhook', { rawBody: forged, headers: { 'content-type': 'application/json', ...headers } });
      expect(response.status).toBe(404);
    }
    expect(await limitsOf(organizationId)).toEqual(before);
    // And the dashboard's plan procedures refuse an API key outright.
    for (const [path, input] of [
      ['organization.changePlan', { plan: '2m' }],
      ['usage.setOverage', { enabled: true }],
      ['organization.withdrawPlanRequest', {}],
    ] as const) {
      const response = await fetch(`${app.url}/api/trpc/${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      expect(response.status, path).toBe(403);
    }
    expect(await limitsOf(organizationId)).toEqual(before);
  });
});
