import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { events } from '@/db/schema';
import { firstIdAt } from '@/server/ids';
import { sweepAutomationRuns } from '@/server/services/automations';
import { startTestApp, type TestApp } from './support/app';
import { publishedTemplate } from './support/automations';

// Resend's own Node SDK (pinned in package.json) drives automations with a `dialect: "resend"` key:
// its calls answer without an error, in Resend's shapes, and the spec's routes see what they did.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let key: string;
let organizationId: string;
let resend: Resend;
beforeEach(async () => {
  await app.reset();
  ({ apiKey: key, organizationId } = await app.createOrg());
  const created = await app.request('POST', '/api/api-keys', { key, body: { name: 'Resend SDK', dialect: 'resend' } });
  expect(created.status, created.text).toBe(201);
  resend = new Resend(created.body.key, { baseUrl: `${app.url}/api` });
});

async function ok<T>(call: PromiseLike<{ data: T | null; error: unknown }>): Promise<T> {
  const { data, error } = await call;
  expect(error).toBeNull();
  return data!;
}

describe("Resend's Node SDK: automations", () => {
  it('create, get, list, update, duplicate, stop, remove', async () => {
    const templateId = await publishedTemplate(app, key);
    const created = await ok(
      resend.automations.create({
        name: 'Welcome series',
        status: 'enabled',
        steps: [
          { key: 'start', type: 'trigger', config: { eventName: 'user.created' } },
          { key: 'wait_1_day', type: 'delay', config: { duration: '1 day' } },
          { key: 'welcome', type: 'send_email', config: { template: { id: templateId, variables: { firstName: { var: 'contact.first_name' } } }, replyTo: 'help@acme.example.com' } },
        ],
        connections: [
          { from: 'start', to: 'wait_1_day' },
          { from: 'wait_1_day', to: 'welcome' },
        ],
      }),
    );
    expect(created).toMatchObject({ object: 'automation', id: expect.any(String) });

    const got = await ok(resend.automations.get(created.id));
    // Resend's shape: snake_case at the top, the steps as written (the SDK wrote event_name, reply_to),
    // the customer's variable names untouched.
    expect(got).toMatchObject({ object: 'automation', id: created.id, name: 'Welcome series', status: 'enabled', created_at: expect.any(String), updated_at: expect.any(String) });
    expect(got.steps).toEqual([
      { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
      { key: 'wait_1_day', type: 'delay', config: { duration: '1 day' } },
      { key: 'welcome', type: 'send_email', config: { template: { id: templateId, variables: { firstName: { var: 'contact.first_name' } } }, reply_to: 'help@acme.example.com' } },
    ]);
    expect(got.connections).toEqual([
      { from: 'start', to: 'wait_1_day', type: 'default' },
      { from: 'wait_1_day', to: 'welcome', type: 'default' },
    ]);

    const page = await ok(resend.automations.list({ status: 'enabled' }));
    expect(page).toMatchObject({ object: 'list', has_more: false, data: [expect.objectContaining({ id: created.id, name: 'Welcome series', status: 'enabled' })] });

    expect(await ok(resend.automations.update(created.id, { name: 'Onboarding' }))).toMatchObject({ object: 'automation', id: created.id });
    const copy = await ok(resend.automations.duplicate(created.id));
    expect(copy).toMatchObject({ object: 'automation', id: expect.any(String) });
    expect(await ok(resend.automations.stop(created.id))).toMatchObject({ object: 'automation', id: created.id, status: 'disabled' });
    expect(await ok(resend.automations.remove(copy.id))).toMatchObject({ object: 'automation', id: copy.id, deleted: true });

    // Through the spec's routes, camelCase outside the steps.
    const seen = await app.request('GET', `/api/automations/${created.id}`, { key });
    expect(seen.body).toMatchObject({ name: 'Onboarding', status: 'disabled', version: 1, triggerEventName: 'user.created', steps: got.steps });
    expect((await app.request('GET', '/api/automations', { key })).body.data.map((item: { id: string }) => item.id)).toEqual([created.id]);
  });

  it("answers a refusal as Resend's error, naming the step", async () => {
    const { error } = await resend.automations.create({
      name: 'Broken',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'user.created' } },
        { key: 'pause', type: 'delay', config: { duration: 'a while' } },
      ],
      connections: [{ from: 'start', to: 'pause' }],
    });
    expect(error).toMatchObject({ statusCode: 400, name: 'validation_error', message: expect.stringContaining('Step "pause"') });
  });

  it('events.create / get / list / update / remove, events.send, and automations.runs.list / get after the sweep', async () => {
    const declared = await ok(resend.events.create({ name: 'user.created', schema: { plan: 'string', firstName: 'string' } }));
    expect(declared).toMatchObject({ object: 'event', id: expect.any(String) });
    // The schema's keys are the customer's field names: copied, never put in snake_case.
    const got = await ok(resend.events.get('user.created'));
    expect(got).toMatchObject({ object: 'event', id: declared.id, name: 'user.created', schema: { plan: 'string', firstName: 'string' }, created_at: expect.any(String), updated_at: null });
    expect(await ok(resend.events.get(declared.id))).toMatchObject({ id: declared.id, name: 'user.created' });
    expect(await ok(resend.events.update('user.created', { schema: { plan: 'string' } }))).toMatchObject({ object: 'event', id: declared.id });
    const extra = await ok(resend.events.create({ name: 'user.left' }));
    expect(await ok(resend.events.remove('user.left'))).toMatchObject({ object: 'event', id: extra.id, deleted: true });
    // Resend's events.list reaches GET /events, which stays the event log here (docs/automations.md),
    // paged by its own `after` (not renamed to a cursor for a resend key).
    const [older, newer] = [firstIdAt(Date.now() - 60_000), firstIdAt(Date.now() - 59_000)];
    for (const id of [older, newer]) await app.runtime.deps.db.insert(events).values({ id, organizationId, type: 'contact.created', data: { mode: 'live' }, createdAt: new Date() });
    const logPage = await ok(resend.events.list({ limit: 1 }));
    expect(logPage).toMatchObject({ object: 'list', has_more: true, data: [{ id: older, type: 'contact.created' }] });
    expect(await ok(resend.events.list({ limit: 1, after: older }))).toMatchObject({ object: 'list', has_more: false, data: [{ id: newer }] });
    const duplicate = await resend.events.create({ name: 'user.created' });
    expect(duplicate.error).toMatchObject({ statusCode: 409, name: 'conflict' });

    const automation = await ok(
      resend.automations.create({
        name: 'Mark new users',
        status: 'enabled',
        steps: [
          { key: 'start', type: 'trigger', config: { eventName: 'user.created' } },
          { key: 'mark', type: 'contact_update', config: { lastName: { var: 'event.plan' } } as never },
        ],
        connections: [{ from: 'start', to: 'mark' }],
      }),
    );
    const contact = await ok(resend.contacts.create({ email: 'ada@example.net', firstName: 'Ada' }));
    expect(await ok(resend.events.send({ event: 'user.created', email: 'ada@example.net', payload: { plan: 'pro' } }))).toMatchObject({ object: 'event', event: 'user.created' });
    expect(await ok(resend.events.send({ event: 'user.created', contactId: contact.id, payload: { plan: 'team' } }))).toMatchObject({ object: 'event', event: 'user.created' });
    const mistyped = await resend.events.send({ event: 'user.created', email: 'ada@example.net', payload: { plan: 3 } });
    expect(mistyped.error).toMatchObject({ statusCode: 400, name: 'validation_error', message: expect.stringContaining('payload.plan') });
    await sweepAutomationRuns(app.runtime.deps);

    const runs = await ok(resend.automations.runs.list({ automationId: automation.id, status: ['completed', 'running'], limit: 1 }));
    expect(runs).toMatchObject({ object: 'list', has_more: true, data: [{ id: expect.any(String), status: 'completed', started_at: expect.any(String), completed_at: expect.any(String), created_at: expect.any(String) }] });
    const rest = await ok(resend.automations.runs.list({ automationId: automation.id, after: runs.data[0]!.id }));
    expect(rest).toMatchObject({ has_more: false, data: [{ status: 'completed' }] });
    expect(await ok(resend.automations.runs.list({ automationId: automation.id, status: 'failed' }))).toMatchObject({ data: [] });

    const run = await ok(resend.automations.runs.get({ automationId: automation.id, runId: runs.data[0]!.id }));
    expect(run).toMatchObject({ object: 'automation_run', id: runs.data[0]!.id, status: 'completed', started_at: expect.any(String), completed_at: expect.any(String) });
    expect(run.steps).toEqual([
      { key: 'start', type: 'trigger', status: 'completed', output: { event: 'user.created' }, error: null, started_at: expect.any(String), completed_at: expect.any(String), created_at: expect.any(String) },
      { key: 'mark', type: 'contact_update', status: 'completed', output: null, error: null, started_at: expect.any(String), completed_at: expect.any(String), created_at: expect.any(String) },
    ]);
    const missing = await resend.automations.runs.get({ automationId: automation.id, runId: '01900000-0000-7000-8000-000000000000' });
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });

    // Through the spec's routes: an event's payload reached the contact (both runs wrote it), in camelCase answers.
    const seen = await app.request('GET', '/api/contacts/ada%40example.net', { key });
    expect(['pro', 'team']).toContain(seen.body.lastName);
    const spec = await app.request('GET', `/api/automations/${automation.id}/runs`, { key });
    expect(spec.body.data.map((item: { contactEmail: string; status: string }) => [item.contactEmail, item.status])).toEqual([
      ['ada@example.net', 'completed'],
      ['ada@example.net', 'completed'],
    ]);
  });
});
