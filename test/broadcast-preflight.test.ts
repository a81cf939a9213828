import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { audienceMemberships, audiences, broadcasts, contacts, emailEvents, emails, suppressions } from '@/db/schema';
import { newId } from '@/server/ids';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import { judgeAudienceQuality } from '@/server/services/broadcasts/preflight/audience-quality';
import { judgeComplaintRate } from '@/server/services/broadcasts/preflight/complaint-rate';
import { judgeDkim } from '@/server/services/domains/authentication/dkim';
import { findDmarc, judgeDmarc, strictSpfAlignment } from '@/server/services/domains/authentication/dmarc';
import { preflightBroadcast, type Preflight } from '@/server/services/broadcasts/preflight/preflight';
import { judgeSpf } from '@/server/services/domains/authentication/spf';
import { judgeOneClickUnsubscribe, mentionsUnsubscribeUrl } from '@/server/services/broadcasts/preflight/unsubscribe';
import type { EmailStatus } from '@/server/vocabulary/email-statuses';
import type { Principal } from '@/server/services/shared/principal';
import { DAY_MS } from '@/server/services/shared/time';
import { startTestApp, type TestApp } from './support/app';
import { publishRecords } from './support/domains';
import { declareConsentSource } from '@/server/services/consent/source';

const MAIL_HOST = 'mx.eumail.example';
const APP_URL = 'https://mail.eumail.example';

let app: TestApp;

const principalOf = (organizationId: string): Principal => ({
  organizationId,
  permission: 'full_access',
  mode: 'live',
  keyId: null,
  domainId: null,
  userId: null,
  plan: '10k',
  rateLimitOverride: null,
});

const db = () => app.runtime.deps.db;
const preflight = (organizationId: string, broadcastId: string, deps = app.runtime.deps): Promise<Preflight> => preflightBroadcast(deps, principalOf(organizationId), broadcastId);
const checkOf = (result: Preflight, id: string) => {
  const found = result.checks.find((check) => check.id === id);
  if (!found) throw new Error(`no ${id} check in ${JSON.stringify(result)}`);
  return found;
};

interface PublishedRecord {
  record: string;
  type: string;
  name: string;
  value: string;
  parts?: string[];
}

/** Registers a domain through the API and, unless told otherwise, publishes its records and verifies it. */
async function domainOf(apiKey: string, name: string, options: { verify?: boolean } = {}) {
  const response = await app.request('POST', '/api/domains', { key: apiKey, body: { name } });
  expect(response.status, response.text).toBe(201);
  const records: PublishedRecord[] = response.body.records;
  if (options.verify !== false) {
    publishRecords(app.dns, records);
    await sweepDomainChecks(app.runtime.deps);
    expect((await app.request('GET', `/api/domains/${response.body.id}`, { key: apiKey })).body.status).toBe('verified');
  }
  const byKind = (kind: string) => records.find((record) => record.record === kind)!;
  return { id: response.body.id as string, records, spf: byKind('SPF'), dkim: byKind('DKIM'), dmarc: byKind('DMARC') };
}

async function audienceWith(organizationId: string, count: number, options: { name?: string; unsubscribed?: number } = {}) {
  const now = app.clock.now();
  const id = newId();
  await db().insert(audiences).values({ id, organizationId, name: options.name ?? 'Newsletter', contactCount: count, createdAt: now });
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    organizationId,
    audienceId: id,
    email: `reader${i}@example.net`,
    subscribed: i >= (options.unsubscribed ?? 0),
    createdAt: now,
    updatedAt: now,
  }));
  if (rows.length > 0) {
    // Added as the organization's API would add them: the consent ledger records how.
    await db().transaction(async (tx) => {
      await declareConsentSource(tx, { via: 'api' });
      await tx.insert(contacts).values(rows.map(({ id: contactId, email }) => ({ id: contactId, organizationId, email, createdAt: now, updatedAt: now })));
      await tx
        .insert(audienceMemberships)
        .values(rows.map((row) => ({ id: newId(), audienceId: id, contactId: row.id, organizationId, subscribed: row.subscribed, createdAt: now, updatedAt: now })));
    });
  }
  return { id, contacts: rows };
}

const LINKED_HTML = '<p>Hello {{ name }}</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>';

async function broadcastOf(
  organizationId: string,
  fields: { from?: string; audienceId?: string | null; html?: string | null; text?: string | null; templateId?: string | null; status?: 'draft' | 'sent' } = {},
) {
  const now = app.clock.now();
  const id = newId();
  await db()
    .insert(broadcasts)
    .values({
      id,
      organizationId,
      audienceId: fields.audienceId ?? null,
      name: 'November news',
      from: fields.from ?? 'Acme News <news@acme.example.com>',
      subject: 'News',
      html: fields.html === undefined ? LINKED_HTML : fields.html,
      text: fields.text ?? null,
      templateId: fields.templateId ?? null,
      status: fields.status ?? 'draft',
      createdAt: now,
      updatedAt: now,
    });
  return id;
}

interface EmailFields {
  status?: EmailStatus;
  mode?: 'live' | 'test';
  createdAt?: Date;
  broadcastId?: string;
  contactId?: string;
  to?: string;
  trackOpens?: boolean;
  trackClicks?: boolean;
}

function emailRow(organizationId: string, fields: EmailFields = {}) {
  const now = fields.createdAt ?? app.clock.now();
  const to = fields.to ?? 'reader@example.net';
  return {
    id: newId(),
    organizationId,
    mode: fields.mode ?? 'live',
    from: 'news@acme.example.com',
    fromAddress: 'news@acme.example.com',
    to: [to],
    cc: [],
    bcc: [],
    replyTo: [],
    recipientAddresses: [to],
    subject: 'News',
    headers: {},
    tags: [],
    tagKeys: [],
    trackOpens: fields.trackOpens ?? true,
    trackClicks: fields.trackClicks ?? false,
    status: fields.status ?? 'delivered',
    broadcastId: fields.broadcastId ?? null,
    contactId: fields.contactId ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Messages of the last days: `complained` of them complained, the rest delivered. */
async function sentMail(organizationId: string, total: number, complained: number, extra: EmailFields = {}) {
  const rows = Array.from({ length: total }, (_, i) => emailRow(organizationId, { ...extra, status: i < complained ? 'complained' : (extra.status ?? 'delivered') }));
  for (let i = 0; i < rows.length; i += 500) await db().insert(emails).values(rows.slice(i, i + 500));
}

/** A sending organization: acme.example.com verified (DMARC p=none published), an audience of 20, a broadcast that links to unsubscribe. */
async function readyBroadcast() {
  const org = await app.createOrg();
  const domain = await domainOf(org.apiKey, 'acme.example.com');
  const audience = await audienceWith(org.organizationId, 20);
  const broadcastId = await broadcastOf(org.organizationId, { audienceId: audience.id });
  return { ...org, domain, audience, broadcastId };
}

// The app (and its database, reset between tests) serves these; the judges below need neither.
describe('against the app', () => {
  beforeAll(async () => {
    app = await startTestApp({ env: { MAIL_HOST, APP_URL, SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.reset();
  });

  describe('GET /broadcasts/{id}/preflight: the service', () => {
    it('answers every check, in order, and ready when none fails', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      const result = await preflight(organizationId, broadcastId);
      expect(result.checks.map((check) => check.id)).toEqual(['sender_domain', 'spf', 'dkim', 'dmarc', 'one_click_unsubscribe', 'visible_unsubscribe', 'complaint_rate', 'audience_quality', 'recorded_consent']);
      expect(result.checks.map((check) => [check.id, check.status])).toEqual(result.checks.map((check) => [check.id, 'pass']));
      expect(result.ready).toBe(true);
      for (const check of result.checks) {
        expect(check.title.length).toBeGreaterThan(0);
        expect(check.detail).toMatch(/\.$/);
      }
    });

    it('reads DNS through the configured loopback server only, live on each request', async () => {
      const { organizationId, broadcastId, domain } = await readyBroadcast();
      app.dns.queries.length = 0;
      await preflight(organizationId, broadcastId);
      expect(app.dns.queries.sort()).toEqual([`TXT ${domain.dkim.name}`, 'TXT _dmarc.acme.example.com', 'TXT _dmarc.example.com', 'TXT send.acme.example.com'].sort());
      app.dns.set('send.acme.example.com', 'TXT', []);
      expect(checkOf(await preflight(organizationId, broadcastId), 'spf').status).toBe('fail');
    });

    it('throws NOT_FOUND for another organization’s broadcast, an unknown id and a malformed one', async () => {
      const { broadcastId } = await readyBroadcast();
      const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
      for (const id of [broadcastId, newId(), 'not-a-uuid']) {
        await expect(preflight(other.organizationId, id)).rejects.toMatchObject({ appCode: 'NOT_FOUND', message: 'Broadcast not found' });
      }
    });
  });

  describe('sender_domain', () => {
    it('fails for a domain registered but not verified, saying how to verify it', async () => {
      const org = await app.createOrg();
      const domain = await domainOf(org.apiKey, 'acme.example.com', { verify: false });
      const result = await preflight(org.organizationId, await broadcastOf(org.organizationId));
      const check = checkOf(result, 'sender_domain');
      expect(check.status).toBe('fail');
      expect(check.detail).toContain('acme.example.com is registered but not verified (status pending');
      expect(check.detail).toContain(`POST /domains/${domain.id}/verify`);
      expect(result.ready).toBe(false);
    });

    it('fails for a domain that is not the account’s (SPF and DKIM not checked) and for the sandbox domain', async () => {
      const org = await app.createOrg();
      const stranger = await preflight(org.organizationId, await broadcastOf(org.organizationId, { from: 'news@elsewhere.example.org' }));
      expect(checkOf(stranger, 'sender_domain')).toMatchObject({ status: 'fail', detail: expect.stringContaining('elsewhere.example.org is not a domain of this account') });
      expect(checkOf(stranger, 'sender_domain').detail).toContain('POST /domains');
      expect(checkOf(stranger, 'spf')).toMatchObject({ status: 'fail', detail: expect.stringContaining('Not checked') });
      expect(checkOf(stranger, 'dkim')).toMatchObject({ status: 'fail', detail: expect.stringContaining('Not checked') });
      const sandbox = await preflight(org.organizationId, await broadcastOf(org.organizationId, { from: 'hello@sandbox.eumail.eu' }));
      expect(checkOf(sandbox, 'sender_domain')).toMatchObject({ status: 'fail', detail: expect.stringContaining('shared sandbox domain') });
    });

    it('points at the domain to fix: its id once registered, its name to register, none for a From that is no address', async () => {
      const org = await app.createOrg();
      const domain = await domainOf(org.apiKey, 'acme.example.com', { verify: false });
      const registered = await preflight(org.organizationId, await broadcastOf(org.organizationId));
      for (const id of ['sender_domain', 'spf', 'dkim']) {
        expect(checkOf(registered, id)).toMatchObject({ status: 'fail', fix: { resource: 'domain', id: domain.id, name: 'acme.example.com' } });
      }
      // What passes, and what the broadcast itself fixes, points nowhere.
      expect(checkOf(registered, 'one_click_unsubscribe')).toMatchObject({ status: 'pass', fix: null });
      const stranger = await preflight(org.organizationId, await broadcastOf(org.organizationId, { from: 'news@elsewhere.example.org' }));
      for (const id of ['sender_domain', 'spf', 'dkim']) expect(checkOf(stranger, id).fix).toEqual({ resource: 'domain', id: null, name: 'elsewhere.example.org' });
      const sandbox = await preflight(org.organizationId, await broadcastOf(org.organizationId, { from: 'hello@sandbox.eumail.eu' }));
      expect(checkOf(sandbox, 'sender_domain').fix).toEqual({ resource: 'domain', id: null, name: null });
      const invalid = await preflight(org.organizationId, await broadcastOf(org.organizationId, { from: 'not an address' }));
      expect(checkOf(invalid, 'sender_domain')).toMatchObject({ status: 'fail', fix: null });
    });

    it('names the API calls to an application and the pages to a person in the dashboard', async () => {
      const org = await app.createOrg();
      const domain = await domainOf(org.apiKey, 'acme.example.com', { verify: false });
      const broadcastId = await broadcastOf(org.organizationId);
      const overRest = await app.request('GET', `/api/broadcasts/${broadcastId}/preflight`, { key: org.apiKey });
      expect(overRest.status).toBe(200);
      const restCheck = overRest.body.checks.find((check: { id: string }) => check.id === 'sender_domain');
      expect(restCheck.detail).toContain(`publish the records GET /domains/${domain.id} lists and verify it with POST /domains/${domain.id}/verify.`);
      expect(restCheck.fix).toEqual({ resource: 'domain', id: domain.id, name: 'acme.example.com' });

      const person: Principal = { ...principalOf(org.organizationId), userId: newId() };
      const forPerson = await preflightBroadcast(app.runtime.deps, person, broadcastId);
      expect(checkOf(forPerson, 'sender_domain').detail).toContain('To fix it, publish the records shown on its domain page, then click Verify now there.');
      expect(checkOf(forPerson, 'dkim').detail).toContain('its domain page gives it split');
      const stranger = await preflightBroadcast(app.runtime.deps, person, await broadcastOf(org.organizationId, { from: 'news@elsewhere.example.org' }));
      expect(checkOf(stranger, 'sender_domain').detail).toContain('To fix it, add it on the Domains page, publish the records shown there and verify it');
      for (const check of [...forPerson.checks, ...stranger.checks]) expect(check.detail, check.id).not.toMatch(/\b(GET|POST|PATCH|DELETE) \//);
    });

    it('fails for a domain verified on another account', async () => {
      await readyBroadcast();
      const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
      const check = checkOf(await preflight(other.organizationId, await broadcastOf(other.organizationId)), 'sender_domain');
      expect(check).toMatchObject({ status: 'fail', detail: expect.stringContaining('acme.example.com is not a domain of this account') });
    });
  });

  describe('spf', () => {
    it('passes when the return path includes our mail host, aligned under the From domain', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      const check = checkOf(await preflight(organizationId, broadcastId), 'spf');
      expect(check.status).toBe('pass');
      expect(check.detail).toContain(`send.acme.example.com, the return path of your messages, includes ${MAIL_HOST}`);
      expect(check.detail).toContain('aligns');
    });

    it.each([
      ['no record', [] as string[], /No SPF record at send\.acme\.example\.com.*publish one TXT record at send\.acme\.example\.com with the value "v=spf1 include:mx\.eumail\.example ~all"/],
      ['another include', ['v=spf1 include:_spf.other.example ~all'], /does not include mx\.eumail\.example.*change it to "v=spf1 include:mx\.eumail\.example ~all"/],
      ['two records', [`v=spf1 include:${MAIL_HOST} ~all`, 'v=spf1 -all'], /2 SPF records.*permerror/],
      ['a softfail include', [`v=spf1 ~include:${MAIL_HOST} -all`], /gives softfail, not pass/],
      ['all before the include', [`v=spf1 -all include:${MAIL_HOST}`], /"-all" comes before include/],
    ])('fails with %s, saying what to publish', async (_, values, detail) => {
      const { organizationId, broadcastId } = await readyBroadcast();
      app.dns.set('send.acme.example.com', 'TXT', values);
      const check = checkOf(await preflight(organizationId, broadcastId), 'spf');
      expect(check.status).toBe('fail');
      expect(check.detail).toMatch(detail);
    });

    it('warns when DMARC asks for strict SPF alignment, which a return-path subdomain cannot meet', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      app.dns.set('_dmarc.acme.example.com', 'TXT', ['v=DMARC1; p=reject; aspf=s']);
      const result = await preflight(organizationId, broadcastId);
      expect(checkOf(result, 'spf')).toMatchObject({ status: 'warn', detail: expect.stringContaining('remove aspf=s') });
      expect(result.ready).toBe(true);
    });

    it('warns, concluding nothing, when the DNS does not answer', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      app.dns.servfail('send.acme.example.com');
      const check = checkOf(await preflight(organizationId, broadcastId), 'spf');
      expect(check.status).toBe('warn');
      expect(check.detail).toMatch(/DNS did not answer for send\.acme\.example\.com .*run the pre-flight again/);
    });
  });

  describe('dkim', () => {
    it('passes when the active selector carries our key, with d= the From domain', async () => {
      const { organizationId, broadcastId, domain } = await readyBroadcast();
      const check = checkOf(await preflight(organizationId, broadcastId), 'dkim');
      expect(check).toMatchObject({ status: 'pass' });
      expect(check.detail).toContain(domain.dkim.name);
      expect(check.detail).toContain('d=acme.example.com');
    });

    it('fails when the record is gone, carries another key, or is revoked', async () => {
      const { organizationId, broadcastId, domain } = await readyBroadcast();
      app.dns.remove(domain.dkim.name);
      let check = checkOf(await preflight(organizationId, broadcastId), 'dkim');
      expect(check.status).toBe('fail');
      expect(check.detail).toContain(`No DKIM record at ${domain.dkim.name}`);
      expect(check.detail).toContain(domain.dkim.value);

      app.dns.set(domain.dkim.name, 'TXT', ['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother']);
      check = checkOf(await preflight(organizationId, broadcastId), 'dkim');
      expect(check).toMatchObject({ status: 'fail', detail: expect.stringContaining('another key') });

      app.dns.set(domain.dkim.name, 'TXT', ['v=DKIM1; k=rsa; p=']);
      check = checkOf(await preflight(organizationId, broadcastId), 'dkim');
      expect(check).toMatchObject({ status: 'fail', detail: expect.stringContaining('revokes the key') });
    });
  });

  describe('dmarc', () => {
    it('passes p=none with a note that quarantine or reject is stronger, and p=reject plainly', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      let check = checkOf(await preflight(organizationId, broadcastId), 'dmarc');
      expect(check.status).toBe('pass');
      expect(check.detail).toContain('_dmarc.acme.example.com has p=none');
      expect(check.detail).toContain('p=quarantine or p=reject protects your domain more strongly');
      app.dns.set('_dmarc.acme.example.com', 'TXT', ['v=DMARC1; p=reject; rua=mailto:d@acme.example.com']);
      check = checkOf(await preflight(organizationId, broadcastId), 'dmarc');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringContaining('has p=reject') });
    });

    it('falls back to the organizational domain, whose sp= governs the subdomain', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      app.dns.remove('_dmarc.acme.example.com');
      app.dns.txt('_dmarc.example.com', 'v=DMARC1; p=reject; sp=quarantine');
      const check = checkOf(await preflight(organizationId, broadcastId), 'dmarc');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringContaining('_dmarc.example.com has sp=quarantine') });
    });

    it('fails when missing, giving the record to publish at the organizational domain', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      app.dns.remove('_dmarc.acme.example.com');
      const result = await preflight(organizationId, broadcastId);
      const check = checkOf(result, 'dmarc');
      expect(check.status).toBe('fail');
      expect(check.detail).toContain('No DMARC record at _dmarc.acme.example.com or _dmarc.example.com');
      expect(check.detail).toContain('publish a TXT record at _dmarc.example.com with the value "v=DMARC1; p=none;"');
      expect(result.ready).toBe(false);
    });

    it('fails with two records, or a record without a valid policy', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      app.dns.set('_dmarc.acme.example.com', 'TXT', ['v=DMARC1; p=none', 'v=DMARC1; p=reject']);
      expect(checkOf(await preflight(organizationId, broadcastId), 'dmarc')).toMatchObject({ status: 'fail', detail: expect.stringContaining('2 DMARC records') });
      app.dns.set('_dmarc.acme.example.com', 'TXT', ['v=DMARC1; p=maybe']);
      expect(checkOf(await preflight(organizationId, broadcastId), 'dmarc')).toMatchObject({ status: 'fail', detail: expect.stringContaining('no valid p= policy') });
    });
  });

  describe('one_click_unsubscribe', () => {
    it('passes with an https APP_URL and fails with an http one, saying to set APP_URL', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      expect(checkOf(await preflight(organizationId, broadcastId), 'one_click_unsubscribe')).toMatchObject({ status: 'pass', detail: expect.stringContaining('List-Unsubscribe-Post') });
      const deps = app.runtime.deps;
      const plain = { ...deps, config: { ...deps.config, appUrl: 'http://mail.eumail.example' } };
      const result = await preflight(organizationId, broadcastId, plain);
      expect(checkOf(result, 'one_click_unsubscribe')).toMatchObject({ status: 'fail', detail: expect.stringContaining('set APP_URL to the https origin') });
      expect(result.ready).toBe(false);
    });
  });

  describe('visible_unsubscribe', () => {
    it.each([
      ['html', { html: '<a href="{{unsubscribe_url}}">Stop</a>' }, /HTML body/],
      ['text, with a filter and whitespace control', { html: null, text: 'Stop: {{-   unsubscribe_url | default: "#" -}}' }, /text body/],
    ])('passes with the link in the %s', async (_, fields, detail) => {
      const org = await app.createOrg();
      const check = checkOf(await preflight(org.organizationId, await broadcastOf(org.organizationId, fields)), 'visible_unsubscribe');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringMatching(detail) });
    });

    it('fails without the link, saying how to add one', async () => {
      const org = await app.createOrg();
      const id = await broadcastOf(org.organizationId, { html: '<p>{{ unsubscribe_urls }} Hello</p>', text: 'Hello {{ name }}' });
      const check = checkOf(await preflight(org.organizationId, id), 'visible_unsubscribe');
      expect(check.status).toBe('fail');
      expect(check.detail).toContain('<a href="{{ unsubscribe_url }}">Unsubscribe</a>');
    });

    it('reads the template’s bodies when the broadcast has a template', async () => {
      const org = await app.createOrg();
      const create = (name: string, html: string) => app.request('POST', '/api/templates', { key: org.apiKey, body: { name, subject: 'News', html } });
      const linked = await create('Linked', LINKED_HTML);
      const bare = await create('Bare', '<p>Hello</p>');
      expect(linked.status, linked.text).toBe(201);
      const pass = await preflight(org.organizationId, await broadcastOf(org.organizationId, { html: null, templateId: linked.body.id }));
      expect(checkOf(pass, 'visible_unsubscribe')).toMatchObject({ status: 'pass', detail: expect.stringContaining('The template "Linked"') });
      const fail = await preflight(org.organizationId, await broadcastOf(org.organizationId, { html: null, templateId: bare.body.id }));
      expect(checkOf(fail, 'visible_unsubscribe')).toMatchObject({ status: 'fail', detail: expect.stringContaining('The template "Bare" has no {{ unsubscribe_url }}') });
      const gone = await preflight(org.organizationId, await broadcastOf(org.organizationId, { html: null }));
      expect(checkOf(gone, 'visible_unsubscribe')).toMatchObject({ status: 'fail', detail: expect.stringContaining('no body to check') });
    });
  });

  describe('complaint_rate', () => {
    it('passes with too little mail to judge, counting only live mail of the last 7 days', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      await sentMail(organizationId, 99, 20);
      await sentMail(organizationId, 50, 50, { mode: 'test' });
      await sentMail(organizationId, 50, 50, { createdAt: new Date(app.clock.now().getTime() - 8 * DAY_MS) });
      const check = checkOf(await preflight(organizationId, broadcastId), 'complaint_rate');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringContaining('99 messages sent in the last 7 days (20 complaints): not enough mail yet to judge') });
    });

    it('passes under 0.1 %, warns from 0.1 %, fails from 0.3 %', async () => {
      const { organizationId, broadcastId } = await readyBroadcast();
      await sentMail(organizationId, 1000, 0);
      await sentMail(organizationId, 10, 0, { status: 'queued' });
      expect(checkOf(await preflight(organizationId, broadcastId), 'complaint_rate')).toMatchObject({ status: 'pass', detail: expect.stringContaining('0 spam complaints over 1000 messages') });
      await sentMail(organizationId, 1, 1);
      let check = checkOf(await preflight(organizationId, broadcastId), 'complaint_rate');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringContaining('1 spam complaint over 1001 messages') });
      await sentMail(organizationId, 2, 2);
      check = checkOf(await preflight(organizationId, broadcastId), 'complaint_rate');
      expect(check.status).toBe('warn');
      expect(check.detail).toContain('3 spam complaints over 1003 messages sent in the last 7 days: 0.299 %, at or above the 0.1 %');
      await sentMail(organizationId, 3, 3);
      const result = await preflight(organizationId, broadcastId);
      expect(checkOf(result, 'complaint_rate')).toMatchObject({ status: 'fail', detail: expect.stringContaining('6 spam complaints over 1006 messages sent in the last 7 days: 0.596 %') });
      expect(result.ready).toBe(false);
    });
  });

  describe('audience_quality', () => {
    /** An earlier broadcast to the audience, delivered to these contacts, tracked unless told otherwise. */
    async function earlierBroadcast(organizationId: string, audienceId: string, recipients: Array<{ id: string; email: string }>, options: { track?: boolean; status?: EmailStatus } = {}) {
      const id = await broadcastOf(organizationId, { audienceId, status: 'sent' });
      const rows = recipients.map((contact) =>
        emailRow(organizationId, { broadcastId: id, contactId: contact.id, to: contact.email, trackOpens: options.track ?? true, status: options.status ?? 'delivered' }),
      );
      if (rows.length > 0) await db().insert(emails).values(rows);
      return rows;
    }

    async function engage(organizationId: string, emailId: string, type: 'email.opened' | 'email.clicked') {
      await db().insert(emailEvents).values({ id: newId(), emailId, organizationId, type, recipient: null, data: {}, createdAt: app.clock.now() });
    }

    async function suppress(organizationId: string, email: string) {
      await db().insert(suppressions).values({ id: newId(), organizationId, email, reason: 'bounce', createdAt: app.clock.now() });
    }

    it('passes at 10 % and warns above it, counting suppressed subscribed contacts', async () => {
      const { organizationId, broadcastId, audience } = await readyBroadcast();
      await suppress(organizationId, audience.contacts[0]!.email);
      await suppress(organizationId, audience.contacts[1]!.email);
      await suppress(organizationId, 'stranger@example.net');
      let check = checkOf(await preflight(organizationId, broadcastId), 'audience_quality');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringContaining('Of the 20 subscribed contacts of "Newsletter", 2 are on your suppression list and 0 received') });
      expect(check.detail).toContain('10 %');
      await suppress(organizationId, audience.contacts[2]!.email);
      check = checkOf(await preflight(organizationId, broadcastId), 'audience_quality');
      expect(check).toMatchObject({ status: 'warn', detail: expect.stringContaining('15 %, above 10 %') });
    });

    it('counts contacts who received tracked earlier broadcasts and never opened or clicked, and fails above 30 %', async () => {
      const org = await app.createOrg();
      const audience = await audienceWith(org.organizationId, 10, { unsubscribed: 2 });
      const subscribed = audience.contacts.filter((contact) => contact.subscribed);
      const first = await earlierBroadcast(org.organizationId, audience.id, subscribed.slice(0, 7));
      const second = await earlierBroadcast(org.organizationId, audience.id, subscribed.slice(0, 2));
      await engage(org.organizationId, first[0]!.id, 'email.opened');
      await engage(org.organizationId, second[1]!.id, 'email.clicked');
      const broadcastId = await broadcastOf(org.organizationId, { audienceId: audience.id });
      // Its own message to the last contact is not an earlier one: it makes nobody unengaged.
      await db().insert(emails).values(emailRow(org.organizationId, { broadcastId, contactId: subscribed[7]!.id, to: subscribed[7]!.email }));
      let check = checkOf(await preflight(org.organizationId, broadcastId), 'audience_quality');
      expect(check).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('Of the 8 subscribed contacts of "Newsletter", 0 are on your suppression list and 5 received earlier broadcasts without ever opening or clicking: 62.5 %, above 30 %'),
      });
      for (const email of first.slice(2, 5)) await engage(org.organizationId, email.id, 'email.opened');
      await suppress(org.organizationId, subscribed[6]!.email);
      // Contact 6 is suppressed (and not counted again as unengaged), contact 5 never engaged: 2 of 8.
      check = checkOf(await preflight(org.organizationId, broadcastId), 'audience_quality');
      expect(check).toMatchObject({ status: 'warn', detail: expect.stringContaining('1 are on your suppression list and 1 received earlier broadcasts without ever opening or clicking: 25 %, above 10 %') });
    });

    it('does not hold untracked or undelivered messages against anyone', async () => {
      const org = await app.createOrg();
      const audience = await audienceWith(org.organizationId, 10);
      await earlierBroadcast(org.organizationId, audience.id, audience.contacts.slice(0, 4), { track: false });
      await earlierBroadcast(org.organizationId, audience.id, audience.contacts.slice(4, 8), { status: 'bounced' });
      await earlierBroadcast(org.organizationId, audience.id, audience.contacts.slice(8), { status: 'canceled' });
      const broadcastId = await broadcastOf(org.organizationId, { audienceId: audience.id });
      const check = checkOf(await preflight(org.organizationId, broadcastId), 'audience_quality');
      expect(check).toMatchObject({ status: 'pass', detail: expect.stringContaining('0 are on your suppression list and 0 received') });
    });

    it('fails when the audience is gone, and warns when it has no subscribed contact', async () => {
      const org = await app.createOrg();
      const gone = await preflight(org.organizationId, await broadcastOf(org.organizationId, { audienceId: null }));
      expect(checkOf(gone, 'audience_quality')).toMatchObject({ status: 'fail', detail: expect.stringContaining('choose an audience') });
      const empty = await audienceWith(org.organizationId, 3, { unsubscribed: 3, name: 'Quiet' });
      const quiet = await preflight(org.organizationId, await broadcastOf(org.organizationId, { audienceId: empty.id }));
      expect(checkOf(quiet, 'audience_quality')).toMatchObject({ status: 'warn', detail: expect.stringContaining('"Quiet" has no subscribed contacts') });
    });
  });
});

describe('the judges, without a database', () => {
  it.each([
    [0, 0, 'pass'],
    [99, 99, 'pass'],
    [100, 0, 'pass'],
    [1001, 1, 'pass'],
    [1000, 1, 'warn'],
    [10_000, 9, 'pass'],
    [10_000, 10, 'warn'],
    [10_000, 29, 'warn'],
    [10_000, 30, 'fail'],
    [1000, 3, 'fail'],
    [1001, 3, 'warn'],
    [100, 1, 'fail'],
  ])('complaint rate: %i sent, %i complained → %s', (sent, complained, status) => {
    expect(judgeComplaintRate({ sent, complained }).status).toBe(status);
  });

  it('complaint rate: says there is not enough mail below 100 messages', () => {
    expect(judgeComplaintRate({ sent: 99, complained: 50 }).detail).toContain('not enough mail yet to judge');
  });

  it.each([
    [100, 10, 0, 'pass'],
    [100, 5, 5, 'pass'],
    [100, 0, 11, 'warn'],
    [100, 20, 10, 'warn'],
    [100, 0, 31, 'fail'],
    [1000, 301, 0, 'fail'],
    [1000, 300, 0, 'warn'],
    [1000, 101, 0, 'warn'],
    [1000, 100, 0, 'pass'],
  ])('audience quality: %i subscribed, %i suppressed, %i unengaged → %s', (subscribed, suppressed, unengaged, status) => {
    expect(judgeAudienceQuality({ name: 'List', subscribed, suppressed, unengaged }).status).toBe(status);
  });

  it('audience quality: no audience fails, an empty one warns', () => {
    expect(judgeAudienceQuality(null)).toMatchObject({ status: 'fail', detail: expect.stringContaining('choose an audience') });
    expect(judgeAudienceQuality({ name: 'List', subscribed: 0, suppressed: 0, unengaged: 0 }).status).toBe('warn');
  });

  it.each([
    ['{{ unsubscribe_url }}', true],
    ['{{unsubscribe_url}}', true],
    ['{{\n  unsubscribe_url\t}}', true],
    ['{{- unsubscribe_url -}}', true],
    ['{{ unsubscribe_url | default: "https://x" }}', true],
    ['{{ unsubscribe_urls }}', false],
    ['{{ my_unsubscribe_url }}', false],
    ['unsubscribe_url', false],
    ['{% if unsubscribe_url %}x{% endif %}', false],
  ])('unsubscribe link: %j → %s', (source, found) => {
    expect(mentionsUnsubscribeUrl(source)).toBe(found);
  });

  it('one-click unsubscribe follows the scheme of APP_URL', () => {
    expect(judgeOneClickUnsubscribe('https://mail.example.eu').status).toBe('pass');
    expect(judgeOneClickUnsubscribe('http://localhost:3000').status).toBe('fail');
  });

  const found = (...values: string[]) => ({ kind: 'found' as const, value: values.map((value) => [value]) });
  const absent = { kind: 'absent' as const };

  it('spf: relaxed alignment passes, strict warns, a neutral include fails', () => {
    const base = { fromDomain: 'acme.eu', returnPathName: 'send.acme.eu', mailHost: 'mx.eumail.eu', strictAlignment: false };
    expect(judgeSpf({ ...base, answer: found('v=spf1 include:mx.eumail.eu ~all') }).status).toBe('pass');
    expect(judgeSpf({ ...base, answer: found('v=spf1 +include:MX.eumail.eu. -all', 'google-site-verification=x') }).status).toBe('pass');
    expect(judgeSpf({ ...base, strictAlignment: true, answer: found('v=spf1 include:mx.eumail.eu ~all') }).status).toBe('warn');
    expect(judgeSpf({ ...base, answer: found('v=spf1 ?include:mx.eumail.eu ~all') }).detail).toContain('gives neutral');
    expect(judgeSpf({ ...base, answer: absent }).status).toBe('fail');
  });

  it('dkim: the key is compared whatever the folding of the record', () => {
    const base = { fromDomain: 'acme.eu', name: 'eu1._domainkey.acme.eu', publicKey: 'MIIBkey+/=', reader: 'application' as const };
    expect(judgeDkim({ ...base, answer: found('v=DKIM1; k=rsa; p=MIIB key+/=') }).status).toBe('pass');
    expect(judgeDkim({ ...base, answer: found('v=DKIM2; p=MIIBkey+/=') }).status).toBe('fail');
  });

  it('dkim: an application is told the API call that gives the split value, a person the domain page', () => {
    const base = { fromDomain: 'acme.eu', name: 'eu1._domainkey.acme.eu', publicKey: 'MIIBkey+/=', answer: absent };
    expect(judgeDkim({ ...base, reader: 'application' }).detail).toContain('(GET /domains/{id} lists it split into 255-byte strings)');
    const forPerson = judgeDkim({ ...base, reader: 'person' }).detail;
    expect(forPerson).toContain('(its domain page gives it split into 255-byte strings under Show full value)');
    expect(forPerson).not.toMatch(/\b(GET|POST) \//);
  });

  it('dmarc: the From domain’s own record wins over the organizational one', () => {
    const own = findDmarc('news.acme.eu', 'acme.eu', found('v=DMARC1; p=quarantine; aspf=s'), found('v=DMARC1; p=none'));
    expect(judgeDmarc(own, 'acme.eu')).toMatchObject({ status: 'pass', detail: expect.stringContaining('_dmarc.news.acme.eu has p=quarantine') });
    expect(strictSpfAlignment(own)).toBe(true);
    const inherited = findDmarc('news.acme.eu', 'acme.eu', found('some-other=txt'), found('v=DMARC1; p=reject'));
    expect(judgeDmarc(inherited, 'acme.eu').detail).toContain('_dmarc.acme.eu has p=reject');
    expect(strictSpfAlignment(inherited)).toBe(false);
    expect(judgeDmarc(findDmarc('acme.eu', 'acme.eu', absent, absent), 'acme.eu').detail).toContain('No DMARC record at _dmarc.acme.eu;');
    expect(judgeDmarc(findDmarc('acme.eu', 'acme.eu', { kind: 'transient', code: 'ESERVFAIL' }, absent), 'acme.eu').status).toBe('warn');
  });
});
