import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCaller, makeMemberOf, signUpPerson, type DashboardPerson } from './support/dashboard-session';

// The API keys page's create form (app/(dashboard)/api-keys/create-api-key-form.tsx) sends the
// key's `dialect`: the spec's answers or Resend's shapes (docs/resend.md "The dialect"). Through
// the dashboard's own procedure, as the form calls it: the key it makes answers in the shape
// chosen, and a role that may not create keys gets none, whatever it asks for.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const callerOf = (person: DashboardPerson) => dashboardCaller(app, person.cookie);

describe('a key created from the dashboard', () => {
  it('answers in the shape the form chose: Resend’s when asked, the spec’s by default', async () => {
    const owner = callerOf(await signUpPerson(app, 'owner@example.test'));
    const resend = await owner.apiKeys.create({ name: 'Resend SDK', permission: 'full_access', mode: 'live', dialect: 'resend' });
    expect(resend).toMatchObject({ name: 'Resend SDK', dialect: 'resend', key: expect.stringMatching(/^eu_live_/) });
    const spec = await owner.apiKeys.create({ name: 'Default', permission: 'full_access', mode: 'test' });
    expect(spec.dialect).toBe('spec');
    expect((await owner.apiKeys.list({})).data.map((key) => [key.name, key.dialect]).sort()).toEqual([
      ['Default', 'spec'],
      ['Resend SDK', 'resend'],
    ]);

    // The same missing template, answered by each key in its own shape.
    const missing = '/api/templates/0190c1de-0000-7000-8000-000000000000';
    expect((await app.request('GET', missing, { key: resend.key })).body).toEqual({ statusCode: 404, name: 'not_found', message: 'Template not found' });
    expect((await app.request('GET', missing, { key: spec.key })).body).toEqual({ error: 'Template not found', code: 'NOT_FOUND' });
  });

  it('is made for the roles that build (owner, admin, developer) and refused to the others, a Resend key included', async () => {
    const owner = await signUpPerson(app, 'owner@example.test');
    const made: string[] = [];
    for (const role of ['admin', 'developer'] as const) {
      const member = await signUpPerson(app, `${role}@example.test`);
      await makeMemberOf(app, member, owner.organizationId, role);
      const key = await callerOf(member).apiKeys.create({ name: `By ${role}`, permission: 'sending_access', mode: 'test', dialect: 'resend' });
      expect(key.dialect, role).toBe('resend');
      made.push(key.name);
    }
    for (const role of ['marketer', 'billing', 'viewer'] as const) {
      const member = await signUpPerson(app, `${role}@example.test`);
      await makeMemberOf(app, member, owner.organizationId, role);
      await expect(callerOf(member).apiKeys.create({ name: `By ${role}`, permission: 'full_access', mode: 'test', dialect: 'resend' }), role).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(new RegExp(`^Your role in this organization \\(${role}\\) does not allow this`)),
      });
    }
    // Only the keys of the roles allowed exist.
    expect((await callerOf(owner).apiKeys.list({})).data.map((key) => key.name).sort()).toEqual(made.sort());
  });
});
