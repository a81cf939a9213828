import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '@/server/routers/types';
import { OPERATOR } from '@/server/services/audit/record';
import { setRateLimit } from '@/server/services/organizations/organizations';
import { startTestApp, type TestApp } from './support/app';
import { captureLog } from './support/log-capture';

const captured = captureLog();
import { keyFor } from './support/keys';
import { runEntry } from './support/process';
import { sendingOrg } from './support/sending-org';

let app: TestApp;
let org: Awaited<ReturnType<typeof sendingOrg>>;
beforeAll(async () => {
  app = await startTestApp({ log: captured.log });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  org = await sendingOrg(app);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_KEY = `eu_live_${'x'.repeat(43)}`;

/** The documented program, run as a separate process against the server; one JSON object per line it printed. */
async function runDocumentedProgram(apiKey: string) {
  const { code, output } = await runEntry('docs/examples/trpc-client.ts', [], {
    EUMAIL_URL: app.url,
    EUMAIL_API_KEY: apiKey,
    EUMAIL_FROM: 'Acme <hello@acme.example.com>',
    EUMAIL_TO: 'ada@example.net',
  });
  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
  return { code, lines, output };
}

const typedClient = (headers: Record<string, string>) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.url}/api/trpc`, headers })] });

/** A tRPC query over plain HTTP, for what the typed client hides: status and headers. */
async function trpcQuery(path: string, headers: Record<string, string>) {
  const response = await fetch(`${app.url}/api/trpc/${path}?input=${encodeURIComponent('{}')}`, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

describe('the types entry for clients', () => {
  it('exports nothing at run time, so a client importing it loads no server code', async () => {
    expect(Object.keys(await import('@/server/routers/types'))).toEqual([]);
  });
});

describe('the documented tRPC client program', () => {
  it('with a full_access key sends an email that REST then finds, and lists the domains', async () => {
    const run = await runDocumentedProgram(org.apiKey);
    expect(run.code, run.output).toBe(0);
    const [sent, listed] = run.lines;
    expect(sent).toEqual({ step: 'send', id: expect.stringMatching(UUID) });
    const email = await app.request('GET', `/api/emails/${sent!.id}`, { key: org.apiKey });
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({ id: sent!.id, subject: 'Hello from the typed client', to: ['ada@example.net'] });
    // Its own domain, then the shared sandbox every organization has (docs/domains.md).
    const sandbox = app.runtime.deps.sandbox;
    expect(listed).toEqual({
      step: 'domains',
      domains: [
        { id: org.domainId, name: 'acme.example.com', status: 'verified' },
        { id: sandbox.id, name: sandbox.name, status: 'verified' },
      ],
    });
  });

  it('with a sending_access key sends, and is refused the domain list exactly as REST refuses GET /domains', async () => {
    const sendingKey = await keyFor(app, org.organizationId, 'sending_access', 'live');
    const run = await runDocumentedProgram(sendingKey);
    expect(run.code, run.output).toBe(1);
    const [sent, refused] = run.lines;
    expect(sent).toEqual({ step: 'send', id: expect.stringMatching(UUID) });
    expect((await app.request('GET', `/api/emails/${sent!.id}`, { key: org.apiKey })).status).toBe(200);
    const rest = await app.request('GET', '/api/domains', { key: sendingKey });
    expect(rest.status).toBe(403);
    expect(refused).toEqual({ step: 'domains.list', error: { code: 'FORBIDDEN', httpStatus: 403, envelope: { status: 403, ...rest.body } } });
  });

  it('with a key the service does not know is UNAUTHORIZED, as on REST', async () => {
    const run = await runDocumentedProgram(UNKNOWN_KEY);
    expect(run.code, run.output).toBe(1);
    const rest = await app.request('POST', '/api/emails', { key: UNKNOWN_KEY, body: {} });
    expect(rest.status).toBe(401);
    expect(run.lines).toEqual([{ step: 'emails.send', error: { code: 'UNAUTHORIZED', httpStatus: 401, envelope: { status: 401, ...rest.body } } }]);
  });
});

describe('a bearer key on /api/trpc', () => {
  it('acts in the mode of the key: what a test key sends only test keys see', async () => {
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const sent = await typedClient({ Authorization: `Bearer ${testKey}` }).emails.send.mutate({
      from: 'hello@acme.example.com',
      to: 'ada@example.net',
      subject: 'Test mode',
      text: 'never delivered',
    });
    expect((await app.request('GET', `/api/emails/${sent.id}`, { key: testKey })).status).toBe(200);
    expect((await app.request('GET', `/api/emails/${sent.id}`, { key: org.apiKey })).status).toBe(404);
  });

  it('answers a malformed email as REST does, naming the field', async () => {
    const client = typedClient({ Authorization: `Bearer ${org.apiKey}` });
    const message = { from: 'hello@acme.example.com', to: [], subject: 'No one', text: 'x' };
    const refused = await client.emails.send.mutate(message).catch((error: unknown) => error);
    const rest = await app.request('POST', '/api/emails', { key: org.apiKey, body: message });
    expect(rest.status).toBe(400);
    expect(refused).toMatchObject({ message: rest.body.error, data: { code: 'BAD_REQUEST', httpStatus: 400, envelope: { status: 400, ...rest.body } } });
    expect(rest.body.error).toMatch(/^to: /);
  });

  it('is refused when revoked or malformed, even beside a dashboard session that would be let in', async () => {
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.test', password: 'correct horse battery' }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    expect((await trpcQuery('organization.current', { cookie })).status).toBe(200);

    const revoked = (await app.request('POST', '/api/api-keys', { key: org.apiKey, body: { name: 'Soon revoked' } })).body;
    expect((await app.request('DELETE', `/api/api-keys/${revoked.id}`, { key: org.apiKey })).status).toBe(200);

    for (const authorization of [`Bearer ${revoked.key}`, 'Bearer not-a-key', 'Basic YWRhOnNlY3JldA==']) {
      const refused = await trpcQuery('organization.current', { cookie, authorization });
      expect(refused.status, authorization).toBe(401);
      expect(refused.body.error.data).toMatchObject({ code: 'UNAUTHORIZED', envelope: { code: 'UNAUTHORIZED', error: 'Missing, malformed or revoked API key' } });
    }
  });

  it('counts against the same rate limit as REST, with its headers, and is refused past it', async () => {
    await setRateLimit(app.runtime.deps, org.organizationId, 2, OPERATOR);
    app.clock.advance(10_000);
    const authorization = `Bearer ${org.apiKey}`;
    expect((await app.request('GET', '/api/domains', { key: org.apiKey })).headers.get('ratelimit-remaining')).toBe('1');

    const last = await trpcQuery('domains.list', { authorization });
    expect(last.status).toBe(200);
    expect(last.headers.get('ratelimit-limit')).toBe('2');
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
    expect(last.headers.get('ratelimit-policy')).toBe('2;w=10');

    const refused = await trpcQuery('domains.list', { authorization });
    expect(refused.status).toBe(429);
    expect(refused.body.error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', envelope: { code: 'RATE_LIMITED' } });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect((await app.request('GET', '/api/domains', { key: org.apiKey })).status).toBe(429);
  });
});

describe('the request id of a tRPC call', () => {
  it('is the one the server put on the response, never the one the client sent, in the 500 body and the log alike', async () => {
    captured.lines.length = 0;
    await app.runtime.deps.db.execute(sql`alter table api_keys rename column permission to permission_gone`);
    try {
      const failed = await trpcQuery('domains.list', { authorization: `Bearer ${org.apiKey}`, 'x-request-id': 'chosen-by-the-client' });
      expect(failed.status).toBe(500);
      const requestId = failed.headers.get('x-request-id');
      expect(requestId).toMatch(UUID);
      expect(failed.body.error.data).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId, envelope: { code: 'INTERNAL_ERROR', error: 'Internal server error' } });
      expect(JSON.stringify(failed.body)).not.toMatch(/chosen-by-the-client|permission|select/);
      expect(captured.lines.filter((line) => line.msg === 'request failed' && line.requestId === requestId)).toHaveLength(1);
      expect(JSON.stringify(captured.lines)).not.toContain('chosen-by-the-client');
    } finally {
      await app.runtime.deps.db.execute(sql`alter table api_keys rename column permission_gone to permission`);
    }
  });
});
