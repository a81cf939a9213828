import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createOpsServer } from '@/server/http/ops-server';
import { OPERATOR } from '@/server/services/audit/record';
import { setRateLimit } from '@/server/services/organizations/organizations';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { applyDuePlanChanges } from '@/server/services/plans/changes';
import { restrictUnpaidAccounts } from '@/server/services/billing/payment-standing';
import { organizations } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp } from './support/app';
import { sample } from './support/metrics';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer({});
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' } });
});
afterAll(async () => {
  await app.close();
  await mx.close();
});
beforeEach(async () => {
  await app.reset();
  app.dns.a('mx.example.net', '127.0.0.1');
});

const scrape = async () => {
  const response = await fetch(`${app.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

describe('/metrics', () => {
  it('counts requests by route template and status, with latency, and never an id in a label', async () => {
    const org = await sendingOrg(app);
    const sent = await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Hi', text: 'x' } });
    expect(sent.status).toBe(200);
    expect((await app.request('GET', `/api/emails/${sent.body.id}`, { key: org.apiKey })).status).toBe(200);
    expect((await app.request('GET', '/api/emails/0190a7e2-0000-7000-8000-000000000000', { key: org.apiKey })).status).toBe(404);
    expect((await app.request('GET', '/api/no/such/path', { key: org.apiKey })).status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'eumail_http_requests_total', { method: 'POST', route: '/emails', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'eumail_http_requests_total', { method: 'GET', route: '/emails/{id}', status: '200' })).toBe(1);
    expect(sample(text, 'eumail_http_requests_total', { method: 'GET', route: '/emails/{id}', status: '404' })).toBe(1);
    expect(sample(text, 'eumail_http_requests_total', { method: 'GET', route: 'api_unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'eumail_http_request_duration_seconds_count', { method: 'GET', route: '/emails/{id}', status: '200' })).toBe(1);
    expect(text).not.toContain(sent.body.id);
    expect(text).not.toContain(org.apiKey);
    expect(sample(text, 'eumail_emails_accepted_total', { source: 'api', mode: 'live' })).toBe(1);
    expect(sample(text, 'eumail_process_roles', { roles: 'web,smtp,worker' })).toBe(1);
    expect(text).toMatch(/^eumail_process_resident_memory_bytes \d+/m);
  });

  it('shows due work per kind with the age of the oldest, then what delivery made of it', async () => {
    const org = await sendingOrg(app);
    const before = sample(await scrape(), 'eumail_emails_delivered_total') ?? 0;
    const sent = await app.request('POST', '/api/emails', { key: org.apiKey, body: { from: 'hello@acme.example.com', to: 'ada@example.net', subject: 'Hi', text: 'x' } });
    expect(sent.status).toBe(200);
    app.clock.advance(30_000);
    const due = await scrape();
    expect(sample(due, 'eumail_due_work', { kind: 'emails' })).toBe(1);
    expect(sample(due, 'eumail_due_work_oldest_age_seconds', { kind: 'emails' })).toBeGreaterThanOrEqual(30);
    for (const kind of ['webhooks', 'domain_checks', 'broadcasts', 'system_emails', 'plan_changes', 'payment_grace']) expect(sample(due, 'eumail_due_work', { kind })).toBeTypeOf('number');
    expect((await sweepEmailDispatch(app.runtime.deps)).handled).toBe(1);
    const after = await scrape();
    expect(sample(after, 'eumail_due_work', { kind: 'emails' })).toBe(0);
    expect(sample(after, 'eumail_due_work_oldest_age_seconds', { kind: 'emails' })).toBe(0);
    expect(sample(after, 'eumail_emails_delivered_total')).toBe(before + 1);
    expect(sample(after, 'eumail_delivery_attempts_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
  });

  it("counts the billing sweeps' due rows too: a downgrade whose month ended, a grace period that ran out unpaid", async () => {
    const org = await sendingOrg(app);
    const now = app.clock.now();
    await app.runtime.deps.db
      .update(organizations)
      .set({ pendingPlan: 'free', pendingPlanAt: new Date(now.getTime() - 60_000), paymentFailedAt: new Date(now.getTime() - 8 * 86_400_000), paymentGraceUntil: new Date(now.getTime() - 120_000) })
      .where(eq(organizations.id, org.organizationId));
    const due = await scrape();
    expect(sample(due, 'eumail_due_work', { kind: 'plan_changes' })).toBe(1);
    expect(sample(due, 'eumail_due_work_oldest_age_seconds', { kind: 'plan_changes' })).toBeGreaterThanOrEqual(60);
    expect(sample(due, 'eumail_due_work', { kind: 'payment_grace' })).toBe(1);
    expect(sample(due, 'eumail_due_work_oldest_age_seconds', { kind: 'payment_grace' })).toBeGreaterThanOrEqual(120);
    expect(await applyDuePlanChanges(app.runtime.deps)).toBe(1);
    expect(await restrictUnpaidAccounts(app.runtime.deps)).toBe(1);
    const after = await scrape();
    expect(sample(after, 'eumail_due_work', { kind: 'plan_changes' })).toBe(0);
    expect(sample(after, 'eumail_due_work', { kind: 'payment_grace' })).toBe(0);
  });

  it('counts rate-limit refusals', async () => {
    const org = await sendingOrg(app);
    await setRateLimit(app.runtime.deps, org.organizationId, 2, OPERATOR);
    const before = sample(await scrape(), 'eumail_rate_limited_total', { channel: 'api' }) ?? 0;
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await app.request('GET', '/api/emails', { key: org.apiKey })).status);
    const refused = answers.filter((status) => status === 429).length;
    expect(refused).toBeGreaterThanOrEqual(3);
    expect(sample(await scrape(), 'eumail_rate_limited_total', { channel: 'api' })).toBe(before + refused);
  });

  it("reports the pool's connections on Postgres", async () => {
    const text = await scrape();
    if (process.env.DATABASE_URL) {
      expect(sample(text, 'eumail_db_pool_max')).toBeGreaterThan(0);
      expect(text).toMatch(/^eumail_db_connections\{state="idle"\} \d+/m);
    } else {
      expect(sample(text, 'eumail_db_pool_max')).toBeUndefined();
    }
  });

  it('refuses a request that came through a proxy, and anyone else without the token', async () => {
    const proxied = await fetch(`${app.url}/metrics`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect(await proxied.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await fetch(`${app.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('answers only the bearer of the token, even on loopback', async () => {
    const guarded = await startTestApp({ shareDatabaseWith: app, env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/metrics`, { headers: { Authorization: 'Bearer metrics-token-012345678X' } })).status).toBe(401);
      const ok = await fetch(`${guarded.url}/metrics`, { headers: { Authorization: 'Bearer metrics-token-0123456789', 'X-Forwarded-For': '203.0.113.9' } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('eumail_http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});

describe('a process without the web role', () => {
  it('serves its health and metrics on PORT, and nothing else', async () => {
    const server = createOpsServer(app.runtime);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${base}/api/health/ready`)).json()).toMatchObject({ status: 'ready', database: 'ok' });
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('eumail_due_work');
      const other = await fetch(`${base}/api/emails`);
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
