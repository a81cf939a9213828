import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { OPERATOR } from '@/server/services/audit/record';
import { createOrganizationWithKey, setRateLimit } from '@/server/services/organizations/organizations';
import { buildServerBundle } from '../support/built-server';
import { openTestDatabase } from '../support/database';
import { faultWorld, listeningPort, postJson, timedRequest, type FaultWorld } from '../support/fault-world';
import { sample, scrapeMetrics } from '../support/metrics';
import { freePort } from '../support/postgres-cluster';
import { waitForOutput, type Spawned } from '../support/process';
import { startSmtpSink } from '../support/smtp';

/*
 * The service scaled out by role on one Postgres: two web processes, one smtp, two workers.
 * Emails sent through both web processes and the SMTP gateway are each delivered once; the rate
 * limit and a plan cap hold across the web processes; a key revoked through one is refused by
 * the others at their next request; and the processes' /metrics add up to what happened.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const opsPort = (spawned: Spawned) => Number(/No web role: port (\d+)/.exec(spawned.output())?.[1]);

describe.runIf(process.env.DATABASE_URL)('two web, one smtp and two worker processes on one Postgres', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let world: FaultWorld;
  let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
  const processes: Spawned[] = [];
  let web: string[];
  let smtp: { base: string; port: number };
  let workers: string[];

  beforeAll(async () => {
    database = await openTestDatabase();
    sink = await startSmtpSink();
    world = await faultWorld({ databaseUrl: database.url!, relayUrl: sink.url });
    bundle = await buildServerBundle('scale-out');
    const start = async (roles: string, ready: RegExp, env: Record<string, string> = {}) => {
      const spawned = bundle.run('main', { ...world.env, ROLES: roles, ...env });
      processes.push(spawned);
      await waitForOutput(spawned, ready, 60_000);
      return spawned;
    };
    const gatewayPort = await freePort();
    const started = await Promise.all([
      start('web', /listening on port \d+/),
      start('web', /listening on port \d+/),
      start('smtp', /SMTP gateway listening/, { SMTP_GATEWAY_PORT: String(gatewayPort) }),
      start('worker', /as worker [0-9a-f-]{36}/),
      start('worker', /as worker [0-9a-f-]{36}/),
    ]);
    web = started.slice(0, 2).map((spawned) => `http://127.0.0.1:${listeningPort(spawned)}`);
    smtp = { base: `http://127.0.0.1:${opsPort(started[2]!)}`, port: gatewayPort };
    workers = started.slice(3).map((spawned) => `http://127.0.0.1:${opsPort(spawned)}`);
  }, 180_000);

  afterAll(async () => {
    for (const spawned of processes) spawned.child.kill('SIGTERM');
    await Promise.all(processes.map((spawned) => spawned.exited));
    bundle?.remove();
    await world?.close();
    await sink?.close();
    await database?.drop();
  });

  it('delivers every email sent through either web process or the gateway once, and /metrics adds up', async () => {
    const created = await postJson(`${web[0]}/api/api-keys`, world.apiKey, { name: 'SMTP', permission: 'sending_access' });
    expect(created.status).toBe(201);
    const subjects: string[] = [];
    const viaApi = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        subjects.push(`api ${i}`);
        return postJson(`${web[i % 2]}/api/emails`, world.apiKey, { from: world.from, to: `reader${i}@example.net`, subject: `api ${i}`, text: 'Hello' });
      }),
    );
    expect(viaApi.map((response) => response.status)).toEqual(viaApi.map(() => 200));
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, requireTLS: true, pool: true, auth: { user: 'apikey', pass: created.body.key }, tls: { rejectUnauthorized: false } });
    try {
      for (let i = 0; i < 10; i += 1) {
        subjects.push(`smtp ${i}`);
        const info = await transport.sendMail({ from: world.from, to: `writer${i}@example.net`, subject: `smtp ${i}`, text: 'Hello' });
        expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as /);
      }
    } finally {
      transport.close();
    }

    const db = world.runtime.deps.db;
    const delivered = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from emails where status = 'delivered'`))[0]!.n;
    const deadline = Date.now() + 60_000;
    while ((await delivered()) < 50 && Date.now() < deadline) await sleep(200);
    expect(await delivered()).toBe(50);
    await sleep(500);
    // Each arrived once.
    expect(sink.messages).toHaveLength(50);
    expect(new Set(sink.messages.map((message) => message.emailId)).size).toBe(50);
    expect(sink.messages.map((message) => /^Subject: (.*)$/m.exec(message.raw)?.[1]?.trim()).sort()).toEqual([...subjects].sort());

    const [web1, web2, gateway, worker1, worker2] = await Promise.all([...web, smtp.base, ...workers].map((base) => scrapeMetrics(base)));
    const accepted = (text: string, source: string) => sample(text, 'eumail_emails_accepted_total', { source, mode: 'live' }) ?? 0;
    expect(accepted(web1!, 'api')).toBe(20);
    expect(accepted(web2!, 'api')).toBe(20);
    expect(accepted(gateway!, 'smtp')).toBe(10);
    const deliveredBy = (text: string) => sample(text, 'eumail_emails_delivered_total') ?? 0;
    // Delivery is the workers' alone, and between them every email once.
    expect(deliveredBy(web1!) + deliveredBy(web2!) + deliveredBy(gateway!)).toBe(0);
    expect(deliveredBy(worker1!) + deliveredBy(worker2!)).toBe(50);
    expect(sample(web1!, 'eumail_http_requests_total', { method: 'POST', route: '/emails', status: '200' })).toBe(20);
    for (const text of [web1!, web2!, gateway!, worker1!, worker2!]) {
      expect(sample(text, 'eumail_due_work', { kind: 'emails' })).toBe(0);
      expect(text).toMatch(/^eumail_db_connections\{state="[a-z ]+"\} \d+$/m);
    }
    expect(sample(gateway!, 'eumail_process_roles', { roles: 'smtp' })).toBe(1);
    expect(sample(worker1!, 'eumail_process_roles', { roles: 'worker' })).toBe(1);
  }, 120_000);

  it('shares the rate limit across web processes, and counts its refusals in their /metrics', async () => {
    const { apiKey, organizationId } = await createOrganizationWithKey(world.runtime.deps, { name: 'Limited', ownerEmail: 'owner@limited.test', plan: '10k' });
    await setRateLimit(world.runtime.deps, organizationId, 10, OPERATOR);
    const before = await Promise.all(web.map((base) => scrapeMetrics(base)));
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => timedRequest('GET', `${web[i % 2]}/api/api-keys`, apiKey).then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    const after = await Promise.all(web.map((base) => scrapeMetrics(base)));
    const refused = (texts: string[]) => texts.reduce((sum, text) => sum + (sample(text, 'eumail_rate_limited_total', { channel: 'api' }) ?? 0), 0);
    expect(refused(after) - refused(before)).toBe(6);
  });

  it('holds a plan cap when both web processes race for its last place', async () => {
    const { apiKey } = await createOrganizationWithKey(world.runtime.deps, { name: 'Free', ownerEmail: 'owner@free.test', plan: 'free' });
    const answers = await Promise.all(web.map((base, i) => postJson(`${base}/api/domains`, apiKey, { name: `race${i}.example.com` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403]);
    expect(answers.find((answer) => answer.status === 403)!.body).toMatchObject({ code: 'PLAN_LIMIT_EXCEEDED' });
    const listed = await timedRequest('GET', `${web[1]}/api/domains`, apiKey);
    // One of its own; the shared sandbox is listed too and counts against no cap.
    expect(listed.body.data.filter((domain: { sandbox: boolean }) => !domain.sandbox)).toHaveLength(1);
  });

  it('refuses a key revoked through one process at the next request to every other', async () => {
    const created = await postJson(`${web[0]}/api/api-keys`, world.apiKey, { name: 'Soon revoked', permission: 'sending_access' });
    const key = created.body.key as string;
    const send = (base: string) => postJson(`${base}/api/emails`, key, { from: world.from, to: 'last@example.net', subject: 'Before revocation', text: 'x' });
    expect((await send(web[0]!)).status).toBe(200);
    expect((await send(web[1]!)).status).toBe(200);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, requireTLS: true, auth: { user: 'apikey', pass: key }, tls: { rejectUnauthorized: false } });
    await transport.verify();
    transport.close();

    expect((await timedRequest('DELETE', `${web[0]}/api/api-keys/${created.body.id}`, world.apiKey)).status).toBe(200);
    const refused = await send(web[1]!);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED' });
    const again = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, requireTLS: true, auth: { user: 'apikey', pass: key }, tls: { rejectUnauthorized: false } });
    await expect(again.verify()).rejects.toMatchObject({ responseCode: 535 });
    again.close();
  });
});
