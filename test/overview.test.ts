import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SNIPPET_SUBJECT, sendSnippets } from '@/app/(dashboard)/overview/snippets';
import { queryRows } from '@/db/client';
import { dashboardContext } from '@/server/auth/session-context';
import { closeOutboundConnections } from '@/server/net/outbound';
import { runAdminCommand } from '@/server/admin/commands';
import { appRouter } from '@/server/routers';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { dailyCounts, dailyCountsQuery } from '@/server/services/overview/daily-counts';
import { recentFailures } from '@/server/services/overview/recent-failures';
import { dayWindow } from '@/server/services/overview/window';
import { DAY_MS } from '@/server/services/shared/time';
import { openToken } from '@/server/services/tracking/tokens';
import { createCallerFactory } from '@/server/trpc/init';
import { startTestApp, type TestApp } from './support/app';
import { publishRecords } from './support/domains';
import { keyFor } from './support/keys';
import { confirmOwnerOf } from './support/dashboard-session';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer, type Refusal } from './support/smtp-mx';

// The dashboard's overview (docs/overview.md): the getting-started checklist from real rows, the
// last seven days by UTC day and mode, the recent failures explained, and the first-email snippets
// run as a person would run them.

let app: TestApp;
let mx: MxServer;
let refuse: (address: string) => Refusal = () => null;
beforeAll(async () => {
  mx = await startMxServer({ rcpt: (address) => refuse(address) });
  app = await startTestApp({
    env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example', TEST_MODE_STEP_MS: '1000' },
  });
});
afterAll(async () => {
  await closeOutboundConnections();
  await app.close();
  await mx.close();
});
beforeEach(async () => {
  await app.reset();
  refuse = () => null;
});

const deps = () => app.runtime.deps;
const createCaller = createCallerFactory(appRouter);

async function signUp(email: string): Promise<Headers> {
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
    body: JSON.stringify({ name: 'Ada', email, password: 'correct horse battery' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  // The checklist is not about the owner's confirmation (test/owner-confirmation.test.ts): confirmed, so live sends go.
  await confirmOwnerOf(app, email);
  return new Headers({ cookie: response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ') });
}

const inTestMode = (headers: Headers) => new Headers({ cookie: `${headers.get('cookie')}; eumail_mode=test` });
const callerFor = (headers: Headers) => createCaller(dashboardContext(deps(), app.runtime.auth, headers, 'req-1', () => {}));

/** Plays a test-mode email's life (sent, delivered or bounced, complained, opened), one step a second. */
async function playTestSteps(steps = 3) {
  for (let step = 0; step < steps; step++) {
    await sweepEmailDispatch(deps());
    app.clock.advance(1_000);
  }
}

async function send(key: string, body: Record<string, unknown>): Promise<string> {
  const response = await app.request('POST', '/api/emails', { key, body: { from: 'Acme <hello@acme.example.com>', subject: 'Receipt', text: 'Thanks', ...body } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

const NOTHING_DONE = { domain: false, records: false, verified: false, api_key: false, email: false };

describe('getting-started checklist', () => {
  it('ticks each step from the organization rows as they appear', async () => {
    const caller = callerFor(await signUp('ada@example.test'));
    expect(await caller.overview.checklist()).toEqual({
      organizationId: expect.any(String),
      mode: 'live',
      apiBaseUrl: 'http://127.0.0.1:3000/api',
      steps: NOTHING_DONE,
      done: false,
      domain: null,
      key: null,
      email: null,
      // No domain verified: the shared sandbox, which exists by default (APP_URL's host is an IP: sandbox.localhost).
      sender: { from: 'onboarding@sandbox.localhost', to: 'ada@example.test', sandbox: true },
    });

    const domain = await caller.domains.create({ name: 'acme.example.com' });
    let checklist = await caller.overview.checklist();
    expect(checklist.steps).toEqual({ ...NOTHING_DONE, domain: true });
    expect(checklist.domain).toEqual({ id: domain.id, name: 'acme.example.com', status: domain.status, recordsFound: [], recordsMissing: ['DKIM', 'MX', 'SPF'] });

    // Some records published: found, the step still open.
    publishRecords(app.dns, domain.records, ['DKIM', 'DMARC']);
    await sweepDomainChecks(deps());
    checklist = await caller.overview.checklist();
    expect(checklist.domain).toMatchObject({ status: 'partially_verified', recordsFound: ['DKIM'], recordsMissing: ['MX', 'SPF'] });
    expect(checklist.steps).toEqual({ ...NOTHING_DONE, domain: true });

    publishRecords(app.dns, domain.records, ['MX', 'SPF']);
    await caller.domains.verify({ id: domain.id });
    await sweepDomainChecks(deps());
    checklist = await caller.overview.checklist();
    expect(checklist.steps).toEqual({ ...NOTHING_DONE, domain: true, records: true, verified: true });
    expect(checklist.domain).toMatchObject({ status: 'verified', recordsFound: ['DKIM', 'MX', 'SPF'], recordsMissing: [] });
    expect(checklist.sender.from).toBe('onboarding@acme.example.com');

    const key = await caller.apiKeys.create({ name: 'Onboarding' });
    checklist = await caller.overview.checklist();
    expect(checklist.steps.api_key).toBe(true);
    expect(checklist.key).toEqual({ id: key.id, name: 'Onboarding', tokenStart: key.key.slice(0, 12), mode: 'live' });
    // The prefix only: the secret is never read back.
    expect(JSON.stringify(checklist)).not.toContain(key.key);
    expect(checklist.done).toBe(false);

    app.dns.mx('example.net', 'mx.example.net');
    app.dns.a('mx.example.net', '127.0.0.1');
    const emailId = await send(key.key, { from: checklist.sender.from, to: 'ada@example.net', subject: 'First' });
    checklist = await caller.overview.checklist();
    expect(checklist.steps).toEqual({ domain: true, records: true, verified: true, api_key: true, email: true });
    expect(checklist.done).toBe(true);
    expect(checklist.email).toEqual({ id: emailId, mode: 'live', subject: 'First', status: 'queued', createdAt: app.clock.now().toISOString() });
  });

  it('tells records found apart from a verified domain: the name verified on another account in the meantime', async () => {
    const caller = callerFor(await signUp('late@example.test'));
    const domain = await caller.domains.create({ name: 'acme.example.com' });
    await sweepDomainChecks(deps());
    // Another account registers the same name and verifies it while this one's records are not out yet.
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'other@example.test' });
    const taken = await app.request('POST', '/api/domains', { key: other.apiKey, body: { name: 'acme.example.com' } });
    expect(taken.status).toBe(201);
    publishRecords(app.dns, taken.body.records);
    await sweepDomainChecks(deps());
    expect((await app.request('GET', `/api/domains/${taken.body.id}`, { key: other.apiKey })).body.status).toBe('verified');

    publishRecords(app.dns, domain.records, ['DKIM']);
    await caller.domains.verify({ id: domain.id });
    await sweepDomainChecks(deps());
    const checklist = await caller.overview.checklist();
    expect(checklist.domain).toMatchObject({ status: 'failed', recordsFound: ['DKIM', 'MX', 'SPF'], recordsMissing: [] });
    expect(checklist.steps).toEqual({ ...NOTHING_DONE, domain: true, records: true });
  });

  it('follows the verified domain among several, and the furthest along before any is verified', async () => {
    const caller = callerFor(await signUp('many@example.test'));
    await runAdminCommand(deps(), 'org:plan', { org: (await caller.overview.checklist()).organizationId, plan: '10k' });
    const first = await caller.domains.create({ name: 'first.example.com' });
    const second = await caller.domains.create({ name: 'second.example.com' });
    // Newest first on a tie.
    expect((await caller.overview.checklist()).domain?.id).toBe(second.id);
    publishRecords(app.dns, first.records, ['DKIM', 'SPF']);
    publishRecords(app.dns, second.records, ['DKIM']);
    await sweepDomainChecks(deps());
    expect((await caller.overview.checklist()).domain).toMatchObject({ id: first.id, recordsFound: ['DKIM', 'SPF'] });
    publishRecords(app.dns, second.records, ['MX', 'SPF']);
    await caller.domains.verify({ id: second.id });
    await sweepDomainChecks(deps());
    expect((await caller.overview.checklist()).domain).toMatchObject({ id: second.id, status: 'verified' });
  });

  it("prefers a key and an email of the dashboard's mode, counts either mode, and never a revoked key", async () => {
    const live = await signUp('modes@example.test');
    const test = inTestMode(live);
    const liveKey = await callerFor(live).apiKeys.create({ name: 'Live key' });
    const testKey = await callerFor(test).apiKeys.create({ name: 'Test key' });
    expect((await callerFor(live).overview.checklist()).key).toMatchObject({ id: liveKey.id, mode: 'live' });
    expect((await callerFor(test).overview.checklist()).key).toMatchObject({ id: testKey.id, mode: 'test' });

    await callerFor(live).apiKeys.revoke({ id: liveKey.id });
    expect((await callerFor(live).overview.checklist()).key).toMatchObject({ id: testKey.id, mode: 'test' });
    await callerFor(test).apiKeys.revoke({ id: testKey.id });
    const none = await callerFor(live).overview.checklist();
    expect(none.key).toBeNull();
    expect(none.steps.api_key).toBe(false);
  });

  it('offers the sandbox domain to send from until a domain is verified', async () => {
    const sandboxApp = await startTestApp({ env: { SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
    try {
      const response = await fetch(`${sandboxApp.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
        body: JSON.stringify({ name: 'Ada', email: 'sandbox@example.test', password: 'correct horse battery' }),
      });
      expect(response.status).toBe(200);
      const headers = new Headers({ cookie: response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ') });
      const caller = createCaller(dashboardContext(sandboxApp.runtime.deps, sandboxApp.runtime.auth, headers, 'req-1', () => {}));
      expect((await caller.overview.checklist()).sender).toEqual({ from: 'onboarding@sandbox.eumail.eu', to: 'sandbox@example.test', sandbox: true });
    } finally {
      await sandboxApp.close();
    }
  });

  it('is the dashboard’s: an API key on /api/trpc is refused, and no session is UNAUTHORIZED', async () => {
    const org = await app.createOrg();
    for (const path of ['overview.checklist', 'overview.activity']) {
      const withKey = await app.request('GET', `/api/trpc/${path}?input=${encodeURIComponent('{}')}`, { key: org.apiKey });
      expect(withKey.status).toBe(403);
      expect(withKey.body.error.data.code).toBe('FORBIDDEN');
      const anonymous = await app.request('GET', `/api/trpc/${path}?input=${encodeURIComponent('{}')}`);
      expect(anonymous.status).toBe(401);
    }
  });
});

describe('first-email snippets', () => {
  const execFileAsync = promisify(execFile);

  it('carry the key prefix and the base URL, and send once the full key is pasted in (curl and Node)', async () => {
    const live = await signUp('snippets@example.test');
    const test = inTestMode(live);
    const domain = await callerFor(live).domains.create({ name: 'acme.example.com' });
    publishRecords(app.dns, domain.records);
    await sweepDomainChecks(deps());
    app.dns.mx('example.test', 'mx.example.net');
    const key = await callerFor(test).apiKeys.create({ name: "Ada's first key" });
    const checklist = await callerFor(test).overview.checklist();
    const input = { apiBaseUrl: checklist.apiBaseUrl, key: checklist.key, mode: checklist.mode, from: checklist.sender.from, to: checklist.sender.to };

    const shown = sendSnippets(input);
    expect(shown.keyPlaceholder).toBe(`${key.key.slice(0, 12)}...`);
    for (const snippet of [shown.curl, shown.node]) {
      expect(snippet).toContain(shown.keyPlaceholder);
      expect(snippet).toContain('http://127.0.0.1:3000/api/emails');
      expect(snippet).toContain('snippets@example.test');
      expect(snippet).toContain('onboarding@acme.example.com');
      expect(snippet).not.toContain(key.key);
    }

    // The same snippets aimed at this test server's port, run as a person would.
    const runnable = sendSnippets({ ...input, apiBaseUrl: `${app.url}/api` });
    const curl = await execFileAsync('bash', ['-c', runnable.curl.replace(runnable.keyPlaceholder, key.key)]);
    const curlId = JSON.parse(curl.stdout).id as string;
    const node = await execFileAsync(process.execPath, ['--input-type=module', '-e', runnable.node], { env: { ...process.env, EUMAIL_API_KEY: key.key } });
    expect(node.stdout).toMatch(/^200 \{ id: '[0-9a-f-]{36}' \}/);
    const nodeId = /id: '([0-9a-f-]{36})'/.exec(node.stdout)![1]!;

    for (const id of [curlId, nodeId]) {
      const email = await app.request('GET', `/api/emails/${id}`, { key: key.key });
      expect(email.status).toBe(200);
      expect(email.body).toMatchObject({ subject: SNIPPET_SUBJECT, from: 'onboarding@acme.example.com', to: ['snippets@example.test'] });
    }
    expect((await callerFor(test).overview.checklist()).steps.email).toBe(true);

    // The third command: the email with its events, the id filled in from the checklist's newest email.
    const newest = (await callerFor(test).overview.checklist()).email!;
    expect(newest.id).toBe(nodeId);
    const events = sendSnippets({ ...input, apiBaseUrl: `${app.url}/api`, emailId: newest.id }).events;
    expect(sendSnippets(input).events).toContain(`EMAIL_ID='<id>'`);
    const read = await execFileAsync('bash', ['-c', events.replace(runnable.keyPlaceholder, key.key)], { env: { ...process.env, EUMAIL_API_KEY: key.key } });
    expect(JSON.parse(read.stdout)).toMatchObject({ id: nodeId, events: [expect.objectContaining({ type: 'email.queued' })] });
  });

  it('keep a quote in an address and a line break in a key name from breaking out of the shell', async () => {
    const snippets = sendSnippets({
      apiBaseUrl: 'http://127.0.0.1:9/api',
      key: { name: 'two\nlines; rm -rf /', tokenStart: 'eu_live_abcd', mode: 'live' },
      mode: 'live',
      from: 'onboarding@acme.example.com',
      to: "o'brien@example.com",
    });
    // The command as the shell splits it: one argument per line, the body whole after -d.
    const echoed = await execFileAsync('bash', ['-c', snippets.curl.replace(/^curl /m, 'printf "%s\\n" ')]);
    const body = JSON.parse(echoed.stdout.slice(echoed.stdout.indexOf('-d\n') + 3));
    expect(body).toEqual({ from: 'onboarding@acme.example.com', to: ["o'brien@example.com"], subject: SNIPPET_SUBJECT, text: expect.any(String), html: expect.any(String) });
    expect(snippets.curl.split('\n')[0]).toBe(`export EUMAIL_API_KEY='eu_live_abcd...'  # the full key of "two lines; rm -rf /", shown once when it was created`);
  });
});

describe('the last seven days', () => {
  it('counts emails by the UTC day of each event, in one mode, for one organization', async () => {
    const org = await sendingOrg(app);
    app.dns.a('mx.example.net', '127.0.0.1');
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const principal = (mode: 'live' | 'test') => ({ organizationId: org.organizationId, mode });

    // Eight days before "now": outside the window.
    app.clock.set('2026-11-13T12:00:00Z');
    await send(testKey, { to: 'ada@example.net' });
    await playTestSteps(2);

    // Two days before: one delivered and opened, one bounced.
    app.clock.set('2026-11-19T12:00:00Z');
    await send(testKey, { to: 'ada@example.net', tracking: { opens: true } });
    await send(testKey, { to: 'bounced@example.net' });
    await playTestSteps(3);

    // Sent a second before midnight: delivered and complained about on the next day.
    app.clock.set('2026-11-20T23:59:59Z');
    await send(testKey, { to: 'complained@example.net' });
    await playTestSteps(3);

    // Today, live: delivered by the MX, opened by a person and by Apple's privacy proxy.
    app.clock.set('2026-11-21T10:00:00Z');
    const liveId = await send(org.apiKey, { to: 'ada@example.net', html: '<p>Hi</p>', tracking: { opens: true } });
    await sweepEmailDispatch(deps());
    app.clock.advance(60_000);
    const open = async (userAgent: string) => {
      const response = await fetch(`${app.url}/t/o/${openToken(deps().encryptionKey, liveId)}`, { headers: { 'user-agent': userAgent } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    };
    await open('Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.5.0');
    await open('Mozilla/5.0');

    // Another organization's email the same day.
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'other@example.test' });
    const otherTestKey = await keyFor(app, other.organizationId, 'full_access', 'test');
    const otherDomain = await app.request('POST', '/api/domains', { key: other.apiKey, body: { name: 'other.example.com' } });
    publishRecords(app.dns, otherDomain.body.records);
    await sweepDomainChecks(deps());
    await send(otherTestKey, { from: 'hello@other.example.com', to: 'ada@example.net' });
    await playTestSteps(2);

    const zero = { sent: 0, delivered: 0, bounced: 0, complained: 0, opened: 0, machineOpened: 0 };
    const days = ['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'];
    const expected = (counts: Record<string, Partial<typeof zero>>) => days.map((day) => ({ day, ...zero, ...counts[day] }));

    expect(await dailyCounts(deps(), principal('live'))).toEqual(expected({ '2026-11-21': { sent: 1, delivered: 1, opened: 1, machineOpened: 1 } }));
    expect(await dailyCounts(deps(), principal('test'))).toEqual(
      expected({
        '2026-11-19': { sent: 2, delivered: 1, bounced: 1, opened: 1 },
        '2026-11-20': { sent: 1 },
        '2026-11-21': { delivered: 1, complained: 1 },
      }),
    );
    expect(await dailyCounts(deps(), { organizationId: other.organizationId, mode: 'test' })).toEqual(expected({ '2026-11-21': { sent: 1, delivered: 1 } }));

    // A day later the 15th has left the window and the 22nd entered it.
    app.clock.set('2026-11-22T00:00:00Z');
    const moved = await dailyCounts(deps(), principal('test'));
    expect(moved.map((day) => day.day)).toEqual([...days.slice(1), '2026-11-22']);
    expect(moved.find((day) => day.day === '2026-11-19')).toMatchObject({ sent: 2 });
  });

  it('reads the event log through its (organization, id) index, skipping what was made before the window', async () => {
    const target = await app.createOrg({ name: 'Target', ownerEmail: 'target@example.test' });
    const now = app.clock.now();
    // Ids made at each row's time (as in production), from a time in ms and random bits.
    const seed = (organizationId: string, from: Date, count: number, stepMs: number, mode: string) =>
      deps().db.execute(sql`
        insert into events (id, organization_id, type, data, created_at)
        select (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8' || substr(r, 4, 3) || '-' || substr(r, 7, 12))::uuid,
               ${organizationId}::uuid, 'email.sent', jsonb_build_object('emailId', gen_random_uuid()::text, 'mode', ${mode}::text), at
        from (select at, lpad(to_hex((extract(epoch from at) * 1000)::bigint), 12, '0') as h, md5(random()::text || n::text) as r
              from (select n, ${from.toISOString()}::timestamptz + n * ${`${stepMs} milliseconds`}::interval as at from generate_series(0, ${count - 1}) as n) as times) as made`);
    // A long history of the target's own, busy neighbours this week, and a few events of the target this week.
    await seed(target.organizationId, new Date(now.getTime() - 25 * DAY_MS), 20_000, 60_000, 'live');
    for (let index = 0; index < 20; index++) {
      const busy = await app.createOrg({ name: `Busy ${index}`, ownerEmail: `busy-${index}@example.test` });
      await seed(busy.organizationId, new Date(now.getTime() - 6 * DAY_MS), 1_000, 400_000, 'live');
    }
    await seed(target.organizationId, new Date(now.getTime() - 2 * DAY_MS), 3, 3_600_000, 'live');
    await deps().db.execute(sql`analyze events`);

    const principal = { organizationId: target.organizationId, mode: 'live' as const };
    const counts = await dailyCounts(deps(), principal);
    expect(counts.reduce((sum, day) => sum + day.sent, 0)).toBe(3);

    const [plan] = await queryRows<{ 'QUERY PLAN': unknown }>(deps().db, sql`explain (format json) ${dailyCountsQuery(deps(), principal, dayWindow(now))}`);
    const text = JSON.stringify(plan!['QUERY PLAN']);
    // The organization's index, from the window's first id on: neither the whole table nor the
    // organization's older history is read.
    expect(text).not.toContain('Seq Scan');
    expect(text).toContain('"Index Name":"events_org_idx"');
    expect(text).toMatch(/"Index Cond":"\(\(organization_id = '[0-9a-f-]+'::uuid\) AND \(id >= '[0-9a-f-]+'::uuid\)\)"/);
  });
});

describe('recent failures', () => {
  it('lists the newest bounced, failed and complained emails of one mode, each explained, newest failure first', async () => {
    const org = await sendingOrg(app);
    app.dns.a('mx.example.net', '127.0.0.1');
    refuse = (address) => (address === 'gone@example.net' ? { code: 550, message: '5.1.1 <gone@example.net>: Recipient address rejected: User unknown in virtual mailbox table' } : null);

    const bouncedId = await send(org.apiKey, { to: 'gone@example.net', subject: 'To nobody' });
    await send(org.apiKey, { to: 'ada@example.net', subject: 'Delivered' });
    await sweepEmailDispatch(deps());
    app.clock.advance(60_000);
    // Deleted before it was sent: failed, with the pipeline's reason and no server's answer.
    const failedId = await send(org.apiKey, { to: 'ada@example.net', subject: 'Orphan' });
    expect((await app.request('DELETE', `/api/domains/${org.domainId}`, { key: org.apiKey })).status).toBe(200);
    await sweepEmailDispatch(deps());

    const live = await recentFailures(deps(), { organizationId: org.organizationId, mode: 'live' });
    expect(live).toEqual([
      { emailId: failedId, subject: 'Orphan', status: 'failed', recipient: 'ada@example.net', at: expect.any(Date), bounce: null, reason: 'the sending domain was deleted' },
      {
        emailId: bouncedId,
        subject: 'To nobody',
        status: 'bounced',
        recipient: 'gone@example.net',
        at: expect.any(Date),
        bounce: { class: 'mailbox_unknown', explanation: expect.stringMatching(/^The address does not exist/) },
        reason: null,
      },
    ]);
    expect(live[0]!.at.getTime()).toBeGreaterThan(live[1]!.at.getTime());
  });

  it('keeps to the mode and the organization, and to the few newest', async () => {
    const org = await sendingOrg(app);
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    const bouncedId = await send(testKey, { to: 'bounced@example.net', subject: 'Bounces' });
    const complainedId = await send(testKey, { to: 'complained@example.net', subject: 'Complaint' });
    await playTestSteps(3);

    const second = await app.createOrg({ name: 'Second', ownerEmail: 'second@example.test' });
    const secondDomain = await app.request('POST', '/api/domains', { key: second.apiKey, body: { name: 'second.example.com' } });
    publishRecords(app.dns, secondDomain.body.records);
    await sweepDomainChecks(deps());
    const secondTestKey = await keyFor(app, second.organizationId, 'full_access', 'test');
    await send(secondTestKey, { from: 'hello@second.example.com', to: 'bounced@example.net' });
    await playTestSteps(2);

    const test = await recentFailures(deps(), { organizationId: org.organizationId, mode: 'test' });
    // The complaint comes a step after the bounce.
    expect(test.map((failure) => [failure.emailId, failure.status, failure.bounce?.class])).toEqual([
      [complainedId, 'complained', 'complaint'],
      [bouncedId, 'bounced', 'mailbox_unknown'],
    ]);
    expect(await recentFailures(deps(), { organizationId: org.organizationId, mode: 'live' })).toEqual([]);
    expect(await recentFailures(deps(), { organizationId: org.organizationId, mode: 'test' }, 1)).toHaveLength(1);
    expect((await recentFailures(deps(), { organizationId: second.organizationId, mode: 'test' })).map((failure) => failure.status)).toEqual(['bounced']);
  });
});

describe('the dashboard procedure', () => {
  it('answers the days and failures of the session’s mode and organization', async () => {
    const live = await signUp('activity@example.test');
    const test = inTestMode(live);
    const domain = await callerFor(live).domains.create({ name: 'acme.example.com' });
    publishRecords(app.dns, domain.records);
    await sweepDomainChecks(deps());
    app.dns.mx('example.net', 'mx.example.net');
    const key = await callerFor(test).apiKeys.create({ name: 'Test' });
    const id = await send(key.key, { to: 'bounced@example.net' });
    await playTestSteps(2);

    const activity = await callerFor(test).overview.activity();
    expect(activity.mode).toBe('test');
    expect(activity.days).toHaveLength(7);
    expect(activity.days.at(-1)).toMatchObject({ day: '2026-11-21', sent: 1, bounced: 1 });
    expect(activity.failures).toEqual([expect.objectContaining({ emailId: id, status: 'bounced', at: expect.stringMatching(/^2026-11-21T/) })]);

    const liveActivity = await callerFor(live).overview.activity();
    expect(liveActivity.days.every((day) => day.sent === 0)).toBe(true);
    expect(liveActivity.failures).toEqual([]);
    // Another person's organization sees nothing of it.
    expect((await callerFor(inTestMode(await signUp('stranger@example.test'))).overview.activity()).failures).toEqual([]);
  });
});
