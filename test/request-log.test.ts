import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedRunner } from '@/server/runner/embedded';
import { SWEEPS } from '@/server/runner/sweeps';
import { enqueueSystemEmail } from '@/server/services/system-mail/queue';
import { startTestApp, type TestApp } from './support/app';
import { captureLog } from './support/log-capture';
import { createSystemMailer } from '@/server/mail/system-mailer';
import { startSmtpSink } from './support/smtp';

const captured = captureLog();
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
  app = await startTestApp({ log: captured.log, systemMailer: createSystemMailer({ relayUrl: smtp.url, dnsServers: [], mxPort: 25, heloName: 'mx.eumail.example' }) });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});
beforeEach(async () => {
  await app.reset();
  captured.lines.length = 0;
});

const requestLines = () => captured.lines.filter((line) => line.msg === 'request');

describe('the access log', () => {
  it('writes one JSON line per API request: id, method, path without the query, status, duration', async () => {
    const response = await app.request('GET', '/api/health?probe=1');
    await expect.poll(() => requestLines().length).toBe(1);
    const [line] = requestLines();
    expect(line).toEqual({
      level: 30,
      time: expect.any(String),
      msg: 'request',
      requestId: response.headers.get('x-request-id'),
      method: 'GET',
      path: '/api/health',
      status: 200,
      durationMs: expect.any(Number),
    });
  });

  it('names the organization and key of an authenticated caller, on REST and on tRPC', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    await app.request('GET', '/api/api-keys?limit=5', { key: apiKey });
    const trpc = await fetch(`${app.url}/api/trpc/apiKeys.list?input=${encodeURIComponent('{}')}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(trpc.status).toBe(200);
    await expect.poll(() => requestLines().length).toBe(2);
    expect(requestLines()).toEqual([
      expect.objectContaining({ path: '/api/api-keys', status: 200, organizationId, keyId: expect.any(String) }),
      expect.objectContaining({ path: '/api/trpc/apiKeys.list', status: 200, organizationId }),
    ]);
  });

  it('keeps which kind of tracking URL was fetched, never its token', async () => {
    await fetch(`${app.url}/t/o/not-a-real-token-but-shaped-like-one`);
    await expect.poll(() => requestLines().length).toBe(1);
    expect(requestLines()[0]).toMatchObject({ path: '/t/o/…' });
    expect(JSON.stringify(captured.lines)).not.toContain('not-a-real-token');
  });

  it('leaves an address in the path out', async () => {
    const { apiKey } = await app.createOrg();
    await app.request('DELETE', '/api/suppressions/ada%40example.com', { key: apiKey });
    await app.request('DELETE', '/api/suppressions/bob@example.com', { key: apiKey });
    await expect.poll(() => requestLines().length).toBe(2);
    expect(requestLines().map((line) => [line.path, line.status])).toEqual([
      ['/api/suppressions/…', 404],
      ['/api/suppressions/…', 404],
    ]);
    expect(JSON.stringify(captured.lines)).not.toMatch(/example\.com/);
  });

  it('logs refusals at info and leaves the organization out when no key was admitted', async () => {
    await app.request('GET', '/api/api-keys', { key: 'eu_live_nope' });
    await app.request('GET', '/api/nothing-here');
    await expect.poll(() => requestLines().length).toBe(2);
    for (const line of requestLines()) {
      expect(line.level).toBe(30);
      expect(line).not.toHaveProperty('organizationId');
    }
    expect(requestLines().map((line) => line.status)).toEqual([401, 404]);
  });
});

describe('the runner log', () => {
  it('says what a sweep handled, and nothing for an idle one', async () => {
    const runner = new EmbeddedRunner(() => app.runtime.deps, SWEEPS, captured.log);
    runner.start();
    try {
      const { organizationId } = await app.createOrg();
      const id = await enqueueSystemEmail(app.runtime.deps.db, app.runtime.deps, { organizationId, kind: 'api-key-revoked', to: 'owner@acme.test', email: { subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' } });
      runner.wake('system-mail', id);
      await smtp.waitFor(1);
      await expect.poll(() => captured.lines.filter((line) => line.msg === 'sweep done' && line.sweep === 'system-mail')).toEqual([
        expect.objectContaining({ level: 30, sweep: 'system-mail', handled: 1, durationMs: expect.any(Number) }),
      ]);
      // Every other sweep ran too and found nothing: no line of theirs.
      expect(captured.lines.filter((line) => line.msg === 'sweep done' && line.sweep !== 'system-mail')).toEqual([]);
    } finally {
      await runner.stop();
    }
  });
});
