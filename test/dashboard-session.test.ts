import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { members } from '@/db/schema';
import { dashboardContext } from '@/server/auth/session-context';
import { appRouter } from '@/server/routers';
import { createCallerFactory } from '@/server/trpc/init';
import { DASHBOARD_TEST_MODE_REFUSAL } from '@/server/vocabulary/test-mode';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

const createCaller = createCallerFactory(appRouter);

async function signUp(email: string): Promise<Headers> {
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
    body: JSON.stringify({ name: 'Ada', email, password: 'correct horse battery' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return new Headers({ cookie });
}

const callerFor = (headers: Headers) => createCaller(dashboardContext(app.runtime.deps, app.runtime.auth, headers, 'req-1', () => {}));

describe('dashboard session', () => {
  it('signing up creates an organization on the Free plan that the person acts for', async () => {
    const caller = callerFor(await signUp('ada@example.test'));
    expect(await caller.organization.current()).toMatchObject({ name: "Ada's organization", plan: { id: 'free', apiKeys: 1 } });
    const key = await caller.apiKeys.create({ name: 'From the dashboard' });
    expect(key).toMatchObject({ permission: 'full_access', mode: 'live', key: expect.stringMatching(/^eu_live_/) });
    expect((await caller.apiKeys.list({})).data).toHaveLength(1);
    await expect(caller.apiKeys.create({ name: 'Second' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/Free plan allows 1 live API key/) });
  });

  it('shows the test world when the dashboard switch is on test, where live state is read-only', async () => {
    const headers = await signUp('switch@example.test');
    const test = new Headers(headers);
    test.set('cookie', `${headers.get('cookie')}; eumail_mode=test`);
    const key = await callerFor(test).apiKeys.create({ name: 'From test view' });
    expect(key.mode).toBe('test');
    expect((await callerFor(test).apiKeys.list({})).data.map((k) => k.mode)).toEqual(['test']);
    // No key is involved: the refusal names the dashboard's switch, whose wording the dashboard recognises to offer it.
    // One at a time: a second call started before the first is awaited would reject unobserved.
    for (const refused of [() => callerFor(test).domains.create({ name: 'switch.example.com' }), () => callerFor(test).audiences.create({ name: 'Newsletter' })]) {
      await expect(refused()).rejects.toMatchObject({ code: 'FORBIDDEN', message: DASHBOARD_TEST_MODE_REFUSAL });
    }
    expect((await callerFor(headers).apiKeys.list({})).data).toHaveLength(1);
  });

  it('without a session answers UNAUTHORIZED with a message for people', async () => {
    await expect(callerFor(new Headers()).apiKeys.list({})).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  });

  it('gives a person left without an organization a new one instead of locking them out', async () => {
    const headers = await signUp('lost@example.test');
    await app.runtime.deps.db.delete(members);
    const [first, second] = await Promise.all([callerFor(headers).organization.current(), callerFor(headers).organization.current()]);
    expect(first.id).toBe(second.id);
    expect(first.plan.id).toBe('free');
  });
});
