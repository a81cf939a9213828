import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAdminCommand } from '@/server/admin/commands';
import { ConfigError, loadConfig } from '@/server/config';
import { closeOutboundConnections } from '@/server/net/outbound';
import { sweepEmailDispatch } from '@/server/services/emails/pipeline/dispatch';
import { applyRetention } from '@/server/services/emails/retention';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';
import { dashboardCall, makeMemberOf, signUpPerson } from './support/dashboard-session';
import { keyFor } from './support/keys';
import { sendingOrg } from './support/sending-org';
import { startMxServer, type MxServer } from './support/smtp-mx';

// The processing record of one message (GET /emails/{id}/processing-record) and the organization's
// record of processing activities (GET /organization/processing-activities): docs/privacy.md.
// Mail goes to a real SMTP server on loopback; opens come through the real tracking pixel.

let app: TestApp;
let mx: MxServer;
beforeAll(async () => {
  mx = await startMxServer();
  app = await startTestApp({ env: { SMTP_MX_PORT: String(mx.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', MAIL_HOST: 'mx.eumail.example' } });
});
afterAll(async () => {
  await closeOutboundConnections();
  await app.close();
  await mx.close();
});

let org: { organizationId: string; apiKey: string; domainId: string };
beforeEach(async () => {
  await app.reset();
  mx.messages.length = 0;
  org = await sendingOrg(app);
  app.dns.a('mx.example.net', '127.0.0.1');
});

const HTML = '<p>Your order <a href="https://shop.example.org/orders/42">#42</a> has shipped.</p>';

async function send(body: Record<string, unknown> = {}, key = org.apiKey): Promise<string> {
  const response = await app.request('POST', '/api/emails', {
    key,
    body: {
      from: 'Acme <hello@acme.example.com>',
      to: ['Ada <ada@example.net>', 'bob@example.net'],
      subject: 'Your order has shipped',
      html: HTML,
      text: 'Your order #42 has shipped.',
      headers: { 'X-Order': '42' },
      tags: [{ name: 'kind', value: 'shipping' }],
      attachments: [{ filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 invoice').toString('base64'), content_type: 'application/pdf' }],
      tracking: { opens: true, clicks: true },
      ...body,
    },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

const record = (id: string, key = org.apiKey) => app.request('GET', `/api/emails/${id}/processing-record`, { key });

/** Opens the delivered message the way a mail client would: by fetching its tracking pixel. */
async function openDelivered(): Promise<void> {
  const mail = await simpleParser(mx.messages[0]!.raw);
  const pixel = /src="http:\/\/127\.0\.0\.1:3000(\/t\/o\/[A-Za-z0-9_-]+)"/.exec(String(mail.html))?.[1];
  expect(pixel, String(mail.html)).toBeTruthy();
  const response = await fetch(`${app.url}${pixel}`, { headers: { 'user-agent': 'Thunderbird/140.0' } });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

const addDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

describe('GET /emails/{id}/processing-record', () => {
  it('says what a delivered and opened message processed, where, by whom, and when each part goes', async () => {
    const id = await send();
    await sweepEmailDispatch(app.runtime.deps);
    // One transaction per recipient: each has its own return path.
    expect(mx.messages).toHaveLength(2);
    app.clock.advance(60_000);
    await openDelivered();

    const response = await record(id);
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ emailId: id, mode: 'live', status: 'delivered', region: 'EU' });
    expect(body.parties.controller).toEqual({ organizationId: org.organizationId, name: 'Acme' });
    expect(body.parties.processor).toEqual({ name: 'EU Mail', baseUrl: 'http://127.0.0.1:3000/api' });
    // The loopback MX took the message for both recipients: it is the one receiving party.
    expect(body.parties.receivingServers).toEqual([{ host: 'mx.example.net', recipients: ['ada@example.net', 'bob@example.net'], lastSeenAt: expect.any(String) }]);
    expect(body.hosts.map((host: { host: string; role: string }) => [host.role, host.host])).toEqual([
      ['service', '127.0.0.1:3000'],
      ['mail_host', 'mx.eumail.example'],
      ['recipient_mx', 'mx.example.net'],
    ]);

    const category = (name: string) => body.categories.find((entry: { category: string }) => entry.category === name);
    expect(body.categories.map((entry: { category: string }) => entry.category)).toEqual([
      'sender_address',
      'recipient_addresses',
      'subject',
      'bodies',
      'attachments',
      'headers',
      'tags',
      'delivery_events',
      'tracking_events',
    ]);
    expect(category('recipient_addresses')).toMatchObject({ count: 2, held: true });
    expect(category('bodies')).toMatchObject({ count: 2, held: true, description: 'The rendered HTML and text body' });
    expect(category('attachments')).toMatchObject({ count: 1, held: true });
    expect(category('headers')).toMatchObject({ count: 1, description: 'Custom headers: X-Order' });
    expect(category('tags')).toMatchObject({ count: 1, held: true });
    // queued, sent, delivered ×2; the open kept its client's network and user agent.
    expect(category('delivery_events')).toMatchObject({ count: 4, held: true });
    expect(category('tracking_events')).toMatchObject({ count: 1, held: true });
    expect(category('tracking_events').description).toMatch(/1 with the client's IP network/);
    expect(body.tracking).toEqual({ opens: true, clicks: true });
    expect(body.events).toEqual([
      { type: 'email.queued', count: 1, withClientData: 0 },
      { type: 'email.sent', count: 1, withClientData: 0 },
      { type: 'email.delivered', count: 2, withClientData: 0 },
      { type: 'email.opened', count: 1, withClientData: 1 },
    ]);

    expect(body.attachments).toEqual([
      { id: expect.any(String), filename: 'invoice.pdf', contentType: 'application/pdf', size: 16, contentDeleteAt: addDays(body.createdAt, 30), contentDeleted: false },
    ]);
    expect(body.retention).toMatchObject({ plan: { id: '10k', label: 'Production 10k' }, logRetentionDays: 30, attachmentRetentionDays: 30, auditRetentionDays: 400 });
    const part = (name: string) => body.retention.parts.find((entry: { part: string }) => entry.part === name);
    for (const name of ['message', 'bodies', 'history']) expect(part(name), name).toMatchObject({ deleteAt: addDays(body.createdAt, 30), deleted: false });
    expect(part('attachment_contents')).toMatchObject({ deleteAt: addDays(body.createdAt, 30), deleted: false });
    // Each copy in the event log goes 30 days after its own event: the open, a minute after the send, is the last.
    const history = (await app.request('GET', `/api/emails/${id}`, { key: org.apiKey })).body.events as Array<{ type: string; createdAt: string }>;
    const opened = history.find((event) => event.type === 'email.opened')!;
    expect(part('event_log')).toMatchObject({ deleteAt: addDays(opened.createdAt, 30), deleted: false });
    expect(part('webhook_deliveries').deleteAt).toBe(part('event_log').deleteAt);
    expect(part('suppressions')).toMatchObject({ deleteAt: null, deleted: false, description: 'No suppression entry was recorded from this message' });
  });

  it('follows the plan: 90 days on 250k, attachment contents reported gone after their 30 days, the record 404 once deleted', async () => {
    await runAdminCommand(app.runtime.deps, 'org:plan', { org: org.organizationId, plan: '250k' });
    const id = await send({ tracking: { opens: false, clicks: false } });
    const first = (await record(id)).body;
    expect(first.retention).toMatchObject({ plan: { id: '250k' }, logRetentionDays: 90 });
    expect(first.retention.parts.find((entry: { part: string }) => entry.part === 'message').deleteAt).toBe(addDays(first.createdAt, 90));
    expect(first.tracking).toEqual({ opens: false, clicks: false });

    app.clock.advance(31 * DAY_MS);
    await applyRetention(app.runtime.deps);
    const later = (await record(id)).body;
    expect(later.attachments[0]).toMatchObject({ filename: 'invoice.pdf', contentDeleteAt: addDays(first.createdAt, 30), contentDeleted: true });
    expect(later.retention.parts.find((entry: { part: string }) => entry.part === 'attachment_contents')).toMatchObject({ deleted: true });
    // The listing stays; the content is gone, as the record says.
    expect(later.categories.find((entry: { category: string }) => entry.category === 'attachments').description).toBe('1 attachment listed by file name, size and type; content still stored for 0');

    app.clock.advance(60 * DAY_MS);
    await applyRetention(app.runtime.deps);
    expect((await record(id)).status).toBe(404);
  });

  it('counts the suppression entries a bounce of the message recorded', async () => {
    const refusing = await startMxServer({ rcpt: (address) => (address === 'gone@example.net' ? { code: 550, message: '5.1.1 User unknown' } : null) });
    const bouncing = await startTestApp({
      shareDatabaseWith: app,
      env: { SMTP_MX_PORT: String(refusing.port), SMTP_MX_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', DNS_SERVERS: app.dns.address },
    });
    try {
      const id = await send({ to: 'gone@example.net', attachments: [] });
      await sweepEmailDispatch(bouncing.runtime.deps);
      const body = (await record(id)).body;
      expect(body.status).toBe('bounced');
      expect(body.parties.receivingServers).toEqual([{ host: 'mx.example.net', recipients: ['gone@example.net'], lastSeenAt: expect.any(String) }]);
      expect(body.retention.parts.find((entry: { part: string }) => entry.part === 'suppressions')).toMatchObject({
        deleteAt: null,
        description: expect.stringMatching(/^1 suppression entry recorded from this message’s bounces or complaints: kept until removed/),
      });
      expect(body.retention.parts.some((entry: { part: string }) => entry.part === 'attachment_contents')).toBe(false);
    } finally {
      await closeOutboundConnections();
      await bouncing.close();
      await refusing.close();
    }
  });

  it("is another organization's or mode's email: 404; an unknown id 404; not a UUID 400; a sending_access key 403", async () => {
    const id = await send();
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const foreign = await record(id, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await record(id, testKey)).status).toBe(404);
    const unknown = await record('01900000-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    const malformed = await record('not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'id: must be a UUID', code: 'VALIDATION_ERROR' });
    const sendingKey = await keyFor(app, org.organizationId, 'sending_access', 'live');
    const refused = await record(id, sendingKey);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
  });
});

describe('a relay', () => {
  it('is a host and a sub-processor, named by host and port and never by its credentials; its host is no receiving server', async () => {
    const smarthost = await startMxServer({ auth: { user: 'relay-user', pass: 'relay-secret' } });
    const relayed = await startTestApp({
      shareDatabaseWith: app,
      env: { SMTP_RELAY_URL: `smtp://relay-user:relay-secret@127.0.0.1:${smarthost.port}`, DNS_SERVERS: app.dns.address, MAIL_HOST: 'mx.eumail.example' },
    });
    try {
      const id = await send({ attachments: [] });
      await sweepEmailDispatch(relayed.runtime.deps);
      const response = await fetch(`${relayed.url}/api/emails/${id}/processing-record`, { headers: { authorization: `Bearer ${org.apiKey}` } });
      const body = await response.json();
      expect(body.status).toBe('delivered');
      expect(smarthost.messages).toHaveLength(2);
      expect(body.hosts).toContainEqual({ host: `127.0.0.1:${smarthost.port}`, role: 'relay', purpose: expect.stringMatching(/SMTP relay/) });
      expect(body.hosts.some((host: { role: string }) => host.role === 'recipient_mx')).toBe(false);
      expect(body.parties.receivingServers).toEqual([]);
      expect(JSON.stringify(body)).not.toMatch(/relay-secret|relay-user/);

      const activities = await (await fetch(`${relayed.url}/api/organization/processing-activities`, { headers: { authorization: `Bearer ${org.apiKey}` } })).json();
      expect(activities.subProcessors).toEqual([{ name: `127.0.0.1:${smarthost.port}`, purpose: expect.stringMatching(/SMTP relay/), location: 'as agreed with the operator', source: 'relay' }]);
      expect(activities.securityMeasures.find((measure: { id: string }) => measure.id === 'smtp_tls').detail).toMatch(/handed to the relay 127\.0\.0\.1 over STARTTLS/);
      expect(JSON.stringify(activities)).not.toMatch(/relay-secret|relay-user/);
    } finally {
      await closeOutboundConnections();
      await relayed.close();
      await smarthost.close();
    }
  });
});

describe('GET /organization/processing-activities', () => {
  const activities = (key = org.apiKey) => app.request('GET', '/api/organization/processing-activities', { key });

  it("describes the organization's processing: controller, EU region, retention under its plan, activities, no sub-processors, security measures", async () => {
    app.dns.set('hooks.acme.example', 'A', ['93.184.216.34']);
    const hook = await app.request('POST', '/api/webhooks', { key: org.apiKey, body: { url: 'https://hooks.acme.example/events', events: ['*'] } });
    expect(hook.status, hook.text).toBe(201);

    const response = await activities();
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body.generatedAt).toBe(app.clock.now().toISOString());
    expect(body.region).toBe('EU');
    expect(body.controller).toEqual({ organizationId: org.organizationId, name: 'Acme', contact: 'owner@acme.test' });
    expect(body.processor).toMatchObject({ name: 'EU Mail', baseUrl: 'http://127.0.0.1:3000/api' });
    expect(body.processor.hosts.map((host: { role: string }) => host.role)).toEqual(['service', 'mail_host']);
    expect(body.retention).toMatchObject({ plan: { id: '10k' }, logRetentionDays: 30, attachmentRetentionDays: 30, auditRetentionDays: 400 });
    expect(body.retention.rules).toContainEqual({ data: 'Email records, bodies and event history', days: 30, note: expect.any(String) });
    expect(body.retention.rules).toContainEqual({ data: 'Contacts', days: null, note: 'Until removed or erased' });
    expect(body.activities.map((activity: { id: string }) => activity.id)).toEqual(['transactional_email', 'broadcasts', 'delivery_tracking', 'suppression_list', 'consent_ledger', 'sign_up_forms', 'automations', 'webhooks', 'account']);
    expect(body.retention.rules).toContainEqual({ data: 'Sign-up form submissions', days: 30, note: expect.any(String) });
    expect(body.retention.rules).toContainEqual({ data: 'Automation runs and their step history', days: 30, note: expect.stringMatching(/^From when the run finished/) });
    expect(body.retention.rules).toContainEqual({ data: 'Events sent with POST /events/send', days: 30, note: expect.any(String) });
    expect(body.retention.rules).toContainEqual({ data: 'Automation email records', days: 365, note: expect.any(String) });
    expect(body.activities.find((activity: { id: string }) => activity.id === 'automations').retention).toBe('Finished runs and their steps 30 days (Production 10k) from when they finished; events sent 30 days (Production 10k); runs still going until they end');
    const webhooks = body.activities.find((activity: { id: string }) => activity.id === 'webhooks');
    expect(webhooks.recipients).toEqual(['The organization’s endpoint at hooks.acme.example']);
    expect(body.activities.find((activity: { id: string }) => activity.id === 'transactional_email').retention).toBe('Messages 30 days (Production 10k); attachment contents 30 days');
    expect(body.subProcessors).toEqual([]);
    const measures = body.securityMeasures.map((measure: { id: string }) => measure.id);
    expect(measures).toEqual(expect.arrayContaining(['secrets_sealed', 'api_keys_hashed', 'https', 'smtp_tls', 'tracking_minimised', 'erasure_hashed', 'audit_log']));
    // APP_URL is plain http here: the record says so rather than claiming TLS.
    expect(body.securityMeasures.find((measure: { id: string }) => measure.id === 'https').title).toBe('HTTPS not configured');

    const big = await app.createOrg({ plan: '250k', name: 'Big', ownerEmail: 'owner@big.test' });
    const bigger = (await activities(big.apiKey)).body;
    expect(bigger.retention.logRetentionDays).toBe(90);
    expect(bigger.activities.find((activity: { id: string }) => activity.id === 'webhooks').recipients).toEqual(['No endpoint is configured']);
  });

  it('lists the sub-processors the operator configured', async () => {
    const configured = await startTestApp({
      shareDatabaseWith: app,
      env: { PRIVACY_SUBPROCESSORS: 'Example Hosting GmbH|Servers and storage|Germany; Backup Oy | Encrypted backups | Finland', APP_URL: 'https://mail.example.eu' },
    });
    try {
      const body = await (await fetch(`${configured.url}/api/organization/processing-activities`, { headers: { authorization: `Bearer ${org.apiKey}` } })).json();
      expect(body.subProcessors).toEqual([
        { name: 'Example Hosting GmbH', purpose: 'Servers and storage', location: 'Germany', source: 'configured' },
        { name: 'Backup Oy', purpose: 'Encrypted backups', location: 'Finland', source: 'configured' },
      ]);
      expect(body.processor.baseUrl).toBe('https://mail.example.eu/api');
      expect(body.securityMeasures.find((measure: { id: string }) => measure.id === 'https').title).toBe('HTTPS for the API and dashboard');
    } finally {
      await configured.close();
    }
  });

  it('refuses a PRIVACY_SUBPROCESSORS entry that is not name|purpose|location at start', () => {
    expect(() => loadConfig({ PRIVACY_SUBPROCESSORS: 'Example Hosting GmbH|Servers' })).toThrow(ConfigError);
    expect(() => loadConfig({ PRIVACY_SUBPROCESSORS: 'Example Hosting GmbH|Servers' })).toThrow(/PRIVACY_SUBPROCESSORS "Example Hosting GmbH\|Servers" is not name\|purpose\|location/);
    expect(loadConfig({}).privacySubprocessors).toEqual([]);
  });

  it('is refused to a sending_access key (403); a test key may read it', async () => {
    const sendingKey = await keyFor(app, org.organizationId, 'sending_access', 'live');
    const refused = await activities(sendingKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'FORBIDDEN' });
    const testKey = await keyFor(app, org.organizationId, 'full_access', 'test');
    expect((await activities(testKey)).body.controller.organizationId).toBe(org.organizationId);
  });

  it('is read in the dashboard by the owner only', async () => {
    const ada = await signUpPerson(app, 'ada@privacy.test');
    const asOwner = await dashboardCall(app, ada.cookie, 'query', 'privacy.processingActivities');
    expect(asOwner.status).toBe(200);
    expect(asOwner.data.controller).toMatchObject({ organizationId: ada.organizationId, contact: 'ada@privacy.test' });
    const carol = await signUpPerson(app, 'carol@privacy.test');
    await makeMemberOf(app, carol, ada.organizationId);
    const asMember = await dashboardCall(app, carol.cookie, 'query', 'privacy.processingActivities');
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.message).toMatch(/owner/);
  });
});
