import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { auditEvents, automations, automationVersions } from '@/db/schema';
import { newId } from '@/server/ids';
import { appRouter } from '@/server/routers';
import { AUTOMATION_LIMITS } from '@/server/services/automations';
import type { Principal } from '@/server/services/shared/principal';
import type { Context } from '@/server/trpc/context';
import { createCallerFactory } from '@/server/trpc/init';
import type { Role } from '@/server/vocabulary/roles';
import { startTestApp, type TestApp } from './support/app';
import { publishedTemplate, quiet, welcomeSeries } from './support/automations';
import { keyFor } from './support/keys';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

async function setUp(plan = '10k') {
  const org = await app.createOrg({ plan });
  return { ...org, key: org.apiKey, templateId: await publishedTemplate(app, org.apiKey) };
}

const create = (key: string, body: unknown) => app.request('POST', '/api/automations', { key, body });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/api/automations/${id}`, { key, body });
const versionsOf = (id: string) =>
  app.runtime.deps.db.select().from(automationVersions).where(eq(automationVersions.automationId, id)).orderBy(asc(automationVersions.version));

describe('automations: create, read, list', () => {
  it('creates a disabled automation at version 1, with connection types written out, and reads it back as written', async () => {
    const { key, templateId } = await setUp();
    const response = await create(key, welcomeSeries(templateId));
    expect(response.status, response.text).toBe(201);
    const automation = response.body;
    expect(automation).toEqual({
      id: expect.any(String),
      name: 'Welcome series',
      status: 'disabled',
      version: 1,
      triggerEventName: 'user.created',
      steps: welcomeSeries(templateId).steps,
      connections: [
        { from: 'start', to: 'wait_1_day', type: 'default' },
        { from: 'wait_1_day', to: 'welcome', type: 'default' },
      ],
      createdAt: app.clock.now().toISOString(),
      updatedAt: app.clock.now().toISOString(),
    });
    expect((await app.request('GET', `/api/automations/${automation.id}`, { key })).body).toEqual(automation);
    expect((await versionsOf(automation.id)).map((row) => [row.version, row.definition.steps.length])).toEqual([[1, 3]]);
  });

  it('lists newest first in pages, without the definitions, and filters by status', async () => {
    const { key, templateId } = await setUp();
    const one = (await create(key, quiet('One'))).body;
    const two = (await create(key, { ...quiet('Two'), status: 'enabled' })).body;
    const three = (await create(key, welcomeSeries(templateId, { name: 'Three' }))).body;
    const first = await app.request('GET', '/api/automations?limit=2', { key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual([
      { id: three.id, name: 'Three', status: 'disabled', version: 1, triggerEventName: 'user.created', createdAt: expect.any(String), updatedAt: expect.any(String) },
      expect.objectContaining({ id: two.id, status: 'enabled', triggerEventName: 'contact.created' }),
    ]);
    const second = await app.request('GET', `/api/automations?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: one.id })], nextCursor: null });
    const enabled = await app.request('GET', '/api/automations?status=enabled', { key });
    expect(enabled.body.data.map((item: { id: string }) => item.id)).toEqual([two.id]);
    expect((await app.request('GET', '/api/automations?status=paused', { key })).status).toBe(400);
  });
});

describe('automations: changes and versions', () => {
  it('renames and enables without a new version; new steps make the next version, the old one kept as it was', async () => {
    const { key, templateId } = await setUp();
    const created = (await create(key, welcomeSeries(templateId))).body;
    app.clock.advance(60_000);
    const renamed = await patch(key, created.id, { name: 'Onboarding', status: 'enabled' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Onboarding', status: 'enabled', version: 1, updatedAt: app.clock.now().toISOString() });

    // The same definition again changes nothing.
    const same = welcomeSeries(templateId);
    expect((await patch(key, created.id, { steps: same.steps, connections: same.connections })).body.version).toBe(1);

    // An enabled automation edited: version 2 for new runs; version 1 stays for runs under way.
    const shorter = { steps: [same.steps[0], same.steps[2]], connections: [{ from: 'start', to: 'welcome' }] };
    const edited = await patch(key, created.id, shorter);
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ status: 'enabled', version: 2, steps: shorter.steps, connections: [{ from: 'start', to: 'welcome', type: 'default' }] });
    const versions = await versionsOf(created.id);
    expect(versions.map((row) => row.version)).toEqual([1, 2]);
    expect(versions[0]!.definition.steps.map((step) => step.key)).toEqual(['start', 'wait_1_day', 'welcome']);
    expect(versions[1]!.definition.steps.map((step) => step.key)).toEqual(['start', 'welcome']);

    // A disabled automation versions the same way (runs of a PATCH-disabled automation may still be going).
    await patch(key, created.id, { status: 'disabled' });
    const again = await patch(key, created.id, { steps: same.steps, connections: same.connections });
    expect(again.body).toMatchObject({ status: 'disabled', version: 3 });
    expect((await app.request('GET', `/api/automations/${created.id}`, { key })).body.version).toBe(3);
  });

  it('never changes a stored version: the database refuses it', async () => {
    const { key, templateId } = await setUp();
    const created = (await create(key, welcomeSeries(templateId))).body;
    await expect(
      app.runtime.deps.db.update(automationVersions).set({ definition: { steps: [], connections: [] } }).where(eq(automationVersions.automationId, created.id)),
    ).rejects.toThrow();
    expect((await versionsOf(created.id))[0]!.definition.steps).toHaveLength(3);
  });

  it('takes steps and connections together, or neither', async () => {
    const { key, templateId } = await setUp();
    const created = (await create(key, welcomeSeries(templateId))).body;
    for (const body of [{ steps: welcomeSeries(templateId).steps }, { connections: [] }]) {
      const response = await patch(key, created.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual({ error: expect.stringContaining('steps and connections together'), code: 'VALIDATION_ERROR' });
    }
  });

  it('duplicates as a disabled copy at version 1, named "(copy)"', async () => {
    const { key, templateId } = await setUp();
    const created = (await create(key, { ...welcomeSeries(templateId), status: 'enabled' })).body;
    await patch(key, created.id, { steps: quiet().steps, connections: quiet().connections });
    const copy = await app.request('POST', `/api/automations/${created.id}/duplicate`, { key });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Welcome series (copy)', status: 'disabled', version: 1, triggerEventName: 'contact.created', steps: quiet().steps });
    expect(copy.body.id).not.toBe(created.id);
  });

  it('stops (disabled, runs ended) and deletes (404 from then on, gone from the list), each in the audit log', async () => {
    const { key, organizationId, templateId } = await setUp();
    const created = (await create(key, { ...welcomeSeries(templateId), status: 'enabled' })).body;
    await patch(key, created.id, { name: 'Renamed' });
    const stopped = await app.request('POST', `/api/automations/${created.id}/stop`, { key });
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.body).toMatchObject({ id: created.id, status: 'disabled', version: 1 });
    // Stopping again is allowed: it ends what runs are left.
    expect((await app.request('POST', `/api/automations/${created.id}/stop`, { key })).status).toBe(200);
    const deleted = await app.request('DELETE', `/api/automations/${created.id}`, { key });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ message: 'Automation deleted' });
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/stop'], ['POST', '/duplicate']] as const) {
      const response = await app.request(method, `/api/automations/${created.id}${path}`, { key, body: method === 'PATCH' ? { name: 'Back' } : undefined });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ error: 'Automation not found', code: 'NOT_FOUND' });
    }
    expect((await app.request('GET', '/api/automations', { key })).body.data).toEqual([]);
    // The row stays (runs and emails name it), deleted and disabled.
    const [row] = await app.runtime.deps.db.select().from(automations).where(eq(automations.id, created.id));
    expect(row).toMatchObject({ status: 'disabled', deletedAt: expect.any(Date) });
    const entries = await app.runtime.deps.db.select().from(auditEvents).where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.targetType, 'automation'))).orderBy(auditEvents.id);
    expect(entries.map((entry) => [entry.action, entry.targetId])).toEqual([
      ['automation.created', created.id],
      ['automation.updated', created.id],
      ['automation.stopped', created.id],
      ['automation.stopped', created.id],
      ['automation.deleted', created.id],
    ]);
    expect(entries[0]!.details).toMatchObject({ status: 'enabled', version: 1, trigger: 'user.created' });
    expect(entries[1]!.details).toMatchObject({ fields: ['name'], version: 1 });
    expect(entries[2]!.details).toEqual({ wasEnabled: true, runsEnded: 0 });
  });
});

describe('automations: who may', () => {
  it("answers 404 for another organization's automation, and changes nothing of it", async () => {
    const { key, templateId } = await setUp();
    const created = (await create(key, welcomeSeries(templateId))).body;
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/stop'], ['POST', '/duplicate']] as const) {
      // A definition with no trigger: still 404, the automation is looked for first.
      const body = method === 'PATCH' ? { name: 'Mine now', status: 'enabled', steps: [{ key: 'x', type: 'delay', config: {} }], connections: [] } : undefined;
      const response = await app.request(method, `/api/automations/${created.id}${path}`, { key: other.apiKey, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
    expect((await app.request('GET', '/api/automations', { key: other.apiKey })).body.data).toEqual([]);
    expect((await app.request('GET', `/api/automations/${created.id}`, { key })).body).toEqual(created);
  });

  it('holds keys to the usual rules: sending_access 403, a test key reads but writes nothing', async () => {
    const { key, organizationId, templateId } = await setUp();
    const created = (await create(key, welcomeSeries(templateId))).body;
    const sending = await keyFor(app, organizationId, 'sending_access', 'live');
    const test = await keyFor(app, organizationId, 'full_access', 'test');
    expect((await app.request('GET', '/api/automations', { key: sending })).status).toBe(403);
    expect((await app.request('GET', `/api/automations/${created.id}`, { key: test })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '', welcomeSeries(templateId)],
      ['PATCH', `/${created.id}`, { status: 'enabled' }],
      ['DELETE', `/${created.id}`, undefined],
      ['POST', `/${created.id}/stop`, undefined],
      ['POST', `/${created.id}/duplicate`, undefined],
    ] as const) {
      const response = await app.request(method, `/api/automations${path}`, { key: test, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    }
    expect((await app.request('GET', '/api/automations', { key })).body.data).toEqual([expect.objectContaining({ id: created.id, status: 'disabled' })]);
  });

  it("holds people to their role: the audience's roles write, every role reads", async () => {
    const { organizationId, templateId } = await setUp();
    const caller = (role: Role) => {
      const principal: Principal = { organizationId, permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId: newId(), role, plan: '10k', rateLimitOverride: null };
      const ctx: Context = { deps: app.runtime.deps, requestId: 'automations', channel: 'dashboard', authenticate: async () => ({ principal, rateLimit: null }), setHeader: () => {}, header: () => undefined };
      return createCallerFactory(appRouter)(ctx).automations;
    };
    const input = welcomeSeries(templateId) as Parameters<ReturnType<typeof caller>['create']>[0];
    const made = await caller('marketer').create(input);
    expect(made.status).toBe('disabled');
    for (const role of ['developer', 'billing', 'viewer'] as const) {
      await expect(caller(role).create(input), role).rejects.toThrow(/does not allow this/);
      await expect(caller(role).stop({ id: made.id }), role).rejects.toThrow(/does not allow this/);
      expect((await caller(role).get({ id: made.id })).id).toBe(made.id);
    }
    expect((await caller('admin').update({ id: made.id, name: 'By an admin' })).name).toBe('By an admin');
  });

  it(`keeps ${AUTOMATION_LIMITS.perOrganization} automations at most (409); deleted ones do not count`, async () => {
    const { key, organizationId } = await setUp();
    const now = app.clock.now();
    const rows = Array.from({ length: AUTOMATION_LIMITS.perOrganization - 1 }, (_, index) => ({
      id: newId(), organizationId, name: `Seeded ${index}`, status: 'disabled' as const, currentVersion: 1, triggerEventName: 'user.created', createdAt: now, updatedAt: now,
    }));
    await app.runtime.deps.db.insert(automations).values(rows);
    const last = await create(key, quiet());
    expect(last.status, last.text).toBe(201);
    const past = await create(key, quiet());
    expect(past.status).toBe(409);
    expect(past.body).toEqual({ error: expect.stringContaining(`${AUTOMATION_LIMITS.perOrganization} automations`), code: 'CONFLICT' });
    await app.runtime.deps.db.update(automations).set({ deletedAt: now }).where(eq(automations.id, rows[0]!.id));
    expect((await create(key, quiet())).status).toBe(201);
  });
});

describe('automations: the plan', () => {
  it('Free enables no automation that sends (list mail, as broadcasts), on creation or by a change; a disabled one is kept', async () => {
    const { key, templateId } = await setUp('free');
    const refused = await create(key, { ...welcomeSeries(templateId), status: 'enabled' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.stringMatching(/need a paid plan.*Free.*step "welcome"/), code: 'PLAN_LIMIT_EXCEEDED' });
    const disabled = await create(key, welcomeSeries(templateId));
    expect(disabled.status, disabled.text).toBe(201);
    expect((await patch(key, disabled.body.id, { status: 'enabled' })).body.code).toBe('PLAN_LIMIT_EXCEEDED');
    // An enabled automation that sends nothing may not start sending.
    const quietOne = (await create(key, { ...quiet(), status: 'enabled' })).body;
    expect(quietOne.status).toBe('enabled');
    const series = welcomeSeries(templateId);
    const grown = await patch(key, quietOne.id, { steps: series.steps, connections: series.connections });
    expect(grown.status).toBe(403);
    expect(grown.body.code).toBe('PLAN_LIMIT_EXCEEDED');
    expect((await app.request('GET', `/api/automations/${quietOne.id}`, { key })).body).toMatchObject({ version: 1, status: 'enabled' });
    // Disabled, it may change; enabling it then is refused again.
    expect((await patch(key, quietOne.id, { status: 'disabled', steps: series.steps, connections: series.connections })).body).toMatchObject({ status: 'disabled', version: 2 });
  });

  it('caps the enabled automations by plan (Free 1, Production 10k 5), counting neither disabled nor deleted ones', async () => {
    const free = await setUp('free');
    const first = (await create(free.key, { ...quiet('First'), status: 'enabled' })).body;
    const second = await create(free.key, { ...quiet('Second'), status: 'enabled' });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({ error: 'The Free plan allows 1 enabled automation; disable one or upgrade', code: 'PLAN_LIMIT_EXCEEDED' });
    const waiting = (await create(free.key, quiet('Waiting'))).body;
    expect((await patch(free.key, waiting.id, { status: 'enabled' })).status).toBe(403);
    // Re-enabling the one that is enabled, or renaming it, is no new enabling.
    expect((await patch(free.key, first.id, { status: 'enabled', name: 'Still first' })).status).toBe(200);
    expect((await app.request('POST', `/api/automations/${first.id}/stop`, { key: free.key })).status).toBe(200);
    expect((await patch(free.key, waiting.id, { status: 'enabled' })).body.status).toBe('enabled');
    expect((await app.request('POST', `/api/automations/${waiting.id}/duplicate`, { key: free.key })).body.status).toBe('disabled');
    expect((await app.request('DELETE', `/api/automations/${waiting.id}`, { key: free.key })).status).toBe(200);
    expect((await patch(free.key, first.id, { status: 'enabled' })).body.status).toBe('enabled');

    const paid = await setUp('10k');
    for (let index = 0; index < 5; index += 1) expect((await create(paid.key, { ...welcomeSeries(paid.templateId), status: 'enabled' })).status).toBe(201);
    const sixth = await create(paid.key, { ...welcomeSeries(paid.templateId), status: 'enabled' });
    expect(sixth.body).toEqual({ error: 'The Production 10k plan allows 5 enabled automations; disable one or upgrade', code: 'PLAN_LIMIT_EXCEEDED' });
  });
});
