import { createPublicKey, createPrivateKey } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { auditEvents, dkimKeys, domains, emails, events } from '@/db/schema';
import { functionsFor } from '@/inngest/functions';
import { splitTxt } from '@/server/services/domains/records';
import { hostOfTypedAddress } from '@/server/services/domains/typed-host';
import { signingKeyOf } from '@/server/services/domains/signing';
import { checkDomain, sweepDomainChecks } from '@/server/services/domains/verification';
import { startTestApp, type TestApp } from './support/app';
import { startDnsServer, type DnsServer } from './support/dns';
import { publishRecords } from './support/domains';
import { keyFor } from './support/keys';

let app: TestApp;
let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  app = await startTestApp({ env: { DNS_SERVERS: dns.address, MAIL_HOST: 'mx.eumail.example', SANDBOX_DOMAIN: 'sandbox.eumail.eu' } });
});
afterAll(async () => {
  await app.close();
  dns.close();
});
beforeEach(async () => {
  await app.reset();
  dns.clear();
});

const HOUR = 3_600_000;

async function register(key: string, body: Record<string, unknown> = { name: 'example.com' }) {
  const response = await app.request('POST', '/api/domains', { key, body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const get = async (key: string, id: string) => (await app.request('GET', `/api/domains/${id}`, { key })).body;

/** Moves the clock to the domain's next due check and runs the sweep, as the runner would. */
async function nextCheck(key: string, id: string) {
  const due = (await get(key, id)).nextCheckAt;
  if (due) app.clock.set(due);
  await sweepDomainChecks(app.runtime.deps);
  return get(key, id);
}

describe('POST /domains', () => {
  it('answers 201 with a fresh RSA-2048 DKIM key, every record to publish, and polling started', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey, { name: 'Example.COM' });
    expect(domain).toMatchObject({ name: 'example.com', status: 'pending', isPolling: true, region: 'eu', returnPath: 'send', openTracking: false, clickTracking: false });
    const key = createPublicKey({ key: Buffer.from(domain.dkim.publicKey, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const byRecord = Object.fromEntries(domain.records.map((r: { record: string }) => [r.record, r]));
    expect(byRecord.DKIM).toMatchObject({ type: 'TXT', host: `${domain.dkim.selector}._domainkey`, name: `${domain.dkim.selector}._domainkey.example.com`, required: true, status: 'pending' });
    expect(byRecord.DKIM.value).toBe(`v=DKIM1; k=rsa; p=${domain.dkim.publicKey}`);
    expect(byRecord.DKIM.parts.join('')).toBe(byRecord.DKIM.value);
    expect(byRecord.DKIM.parts.every((part: string) => Buffer.byteLength(part) <= 255)).toBe(true);
    expect(byRecord.MX).toMatchObject({ type: 'MX', host: 'send', name: 'send.example.com', value: 'mx.eumail.example', priority: 10, required: true });
    expect(byRecord.SPF).toMatchObject({ type: 'TXT', name: 'send.example.com', value: 'v=spf1 include:mx.eumail.example ~all', required: true });
    expect(byRecord.DMARC).toMatchObject({ type: 'TXT', name: '_dmarc.example.com', required: false });
  });

  it('stores the private key sealed under the operator key, and it pairs with the published public key', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const [stored] = await app.runtime.deps.db.select().from(dkimKeys);
    expect(stored!.privateKeyEncrypted).toMatch(/^v1\./);
    expect(stored!.privateKeyEncrypted).not.toContain('PRIVATE KEY');
    const signing = await signingKeyOf(app.runtime.deps, domain.id);
    expect(signing!.selector).toBe(domain.dkim.selector);
    const derived = createPublicKey(createPrivateKey(signing!.privateKeyPem)).export({ type: 'spki', format: 'der' }).toString('base64');
    expect(derived).toBe(domain.dkim.publicKey);
  });

  it('takes a custom return path and tracking defaults', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey, { name: 'mail.example.org', return_path: 'Bounces', open_tracking: true, click_tracking: true });
    expect(domain).toMatchObject({ name: 'mail.example.org', returnPath: 'bounces', openTracking: true, clickTracking: true });
    expect(domain.records.find((r: { record: string }) => r.record === 'MX').name).toBe('bounces.mail.example.org');
  });

  it('normalises IDN names to punycode', async () => {
    const { apiKey } = await app.createOrg();
    expect((await register(apiKey, { name: 'Bücher.de' })).name).toBe('xn--bcher-kva.de');
  });

  it.each([
    ['192.0.2.10', /IP address/],
    ['[2001:db8::1]', /IP address/],
    ['com', /public suffix|valid domain/],
    ['co.uk', /public suffix/],
    ['https://example.com', /not a domain name .*; did you mean example\.com\?$/],
    ['https://Example.com/path?q=1', /"https:\/\/Example\.com\/path\?q=1" is not a domain name .*; did you mean example\.com\?$/],
    ['mail.example.com:587', /did you mean mail\.example\.com\?$/],
    ['user@example.com', /not a domain name .*; did you mean example\.com\?$/],
    ['http://192.0.2.10/', /not a domain name \(no scheme, path, port or address\)$/],
    ['localhost', /not a valid domain name/],
    ['-bad-.example.com', /not a valid domain name/],
    ['', /must not be empty/],
  ])('refuses %j with a clear VALIDATION_ERROR', async (name, message) => {
    const { apiKey } = await app.createOrg();
    const response = await app.request('POST', '/api/domains', { key: apiKey, body: { name } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.error).toMatch(message);
  });

  it('reads the host out of a web or email address typed as the name, and nothing out of anything else', () => {
    expect(hostOfTypedAddress('https://example.com/path')).toBe('example.com');
    expect(hostOfTypedAddress(' HTTP://Mail.Example.com./ ')).toBe('mail.example.com');
    expect(hostOfTypedAddress('example.com/signup')).toBe('example.com');
    expect(hostOfTypedAddress('//example.com')).toBe('example.com');
    expect(hostOfTypedAddress('hello@example.com')).toBe('example.com');
    expect(hostOfTypedAddress('https://bücher.de')).toBe('xn--bcher-kva.de');
    for (const input of ['example.com', 'localhost:3000', 'https://192.0.2.10/x', 'http://[2001:db8::1]/', 'https://', 'not a url']) {
      expect(hostOfTypedAddress(input), input).toBeNull();
    }
  });

  it('refuses a bad return path and unknown properties', async () => {
    const { apiKey } = await app.createOrg();
    for (const body of [{ name: 'example.com', return_path: 'a b' }, { name: 'example.com', region: 'us' }]) {
      const response = await app.request('POST', '/api/domains', { key: apiKey, body });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 409 for a name already on the account, and for one verified on another account', async () => {
    const a = await app.createOrg({ name: 'A' });
    const b = await app.createOrg({ name: 'B' });
    const domain = await register(a.apiKey);
    expect((await app.request('POST', '/api/domains', { key: a.apiKey, body: { name: 'EXAMPLE.com' } })).status).toBe(409);
    // Not verified yet: another account may register it too; whoever verifies first owns it.
    const rival = await register(b.apiKey);
    publishRecords(dns, domain.records);
    await sweepDomainChecks(app.runtime.deps);
    expect((await get(a.apiKey, domain.id)).status).toBe('verified');
    const refused = await app.request('POST', '/api/domains', { key: (await app.createOrg({ name: 'C' })).apiKey, body: { name: 'example.com' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'example.com is already verified on another account', code: 'CONFLICT' });
    // The rival's records (its own DKIM key) never verify it while A holds the name.
    publishRecords(dns, rival.records);
    await app.request('POST', `/api/domains/${rival.id}/verify`, { key: b.apiKey });
    await sweepDomainChecks(app.runtime.deps);
    expect(await get(b.apiKey, rival.id)).toMatchObject({ status: 'failed', failureReason: 'example.com is verified on another account' });
  });

  it('holds the plan domain cap: Free allows one (403 PLAN_LIMIT_EXCEEDED)', async () => {
    const { apiKey } = await app.createOrg({ plan: 'free' });
    await register(apiKey);
    const second = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'example.org' } });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({ error: 'The Free plan allows 1 domain; delete one or upgrade', code: 'PLAN_LIMIT_EXCEEDED' });
  });

  it('refuses the shared sandbox domain and its subdomains, which are listed once, as the sandbox', async () => {
    const { apiKey } = await app.createOrg();
    for (const name of ['sandbox.eumail.eu', 'Mail.Sandbox.eumail.eu.']) {
      const response = await app.request('POST', '/api/domains', { key: apiKey, body: { name } });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('CONFLICT');
    }
    const listed = (await app.request('GET', '/api/domains', { key: apiKey })).body.data;
    expect(listed).toEqual([expect.objectContaining({ name: 'sandbox.eumail.eu', status: 'verified', sandbox: true })]);
  });
});

describe('verification by polling real DNS', () => {
  it('goes from pending to verified once the records are published, and emits domain events', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    expect(await checkDomain(app.runtime.deps, domain.id)).toBe('pending');
    publishRecords(dns, domain.records);
    const verified = await nextCheck(apiKey, domain.id);
    expect(verified).toMatchObject({ status: 'verified', isPolling: false, failureReason: null });
    expect(verified.records.map((r: { status: string }) => r.status)).toEqual(['verified', 'verified', 'verified', 'verified']);
    expect(new Date(verified.nextCheckAt).getTime() - app.clock.now().getTime()).toBe(6 * HOUR);
    const log = await app.runtime.deps.db.select().from(events).where(eq(events.organizationId, organizationId)).orderBy(events.id);
    expect(log.map((e) => [e.type, e.data.status])).toEqual([
      ['domain.created', 'pending'],
      ['domain.updated', 'verified'],
    ]);
    expect((await app.request('GET', '/api/domains', { key: apiKey })).body.data).toEqual([
      {
        id: domain.id,
        name: 'example.com',
        status: 'verified',
        sandbox: false,
        isPolling: false,
        lastCheckedAt: app.clock.now().toISOString(),
        nextCheckAt: verified.nextCheckAt,
        missingRecords: [],
        createdAt: domain.createdAt,
      },
      expect.objectContaining({ name: 'sandbox.eumail.eu', sandbox: true, lastCheckedAt: null, nextCheckAt: null, missingRecords: [] }),
    ]);
  });

  it('is partially verified while only some required records match', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    // Nothing is called missing before the first check has read the DNS.
    expect(domain).toMatchObject({ lastCheckedAt: null, nextCheckAt: app.clock.now().toISOString(), missingRecords: [] });
    publishRecords(dns, domain.records, ['DKIM']);
    const partial = await nextCheck(apiKey, domain.id);
    const [listed] = (await app.request('GET', '/api/domains', { key: apiKey })).body.data;
    expect(listed).toMatchObject({ status: 'partially_verified', isPolling: true, missingRecords: ['MX', 'SPF'], lastCheckedAt: app.clock.now().toISOString() });
    expect(new Date(listed.nextCheckAt).getTime() - app.clock.now().getTime()).toBe(60_000);
    expect(partial.status).toBe('partially_verified');
    expect(Object.fromEntries(partial.records.map((r: { record: string; status: string }) => [r.record, r.status]))).toEqual({
      DKIM: 'verified', MX: 'pending', SPF: 'pending', DMARC: 'pending',
    });
    expect(partial.isPolling).toBe(true);
    expect(partial.failureReason).toBe('The MX, SPF records are not published yet');
  });

  it('marks a DKIM record published with another key as failed, and does not verify', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const other = await register(apiKey, { name: 'example.net' });
    publishRecords(dns, domain.records, ['MX', 'SPF', 'DMARC']);
    dns.txt(`${domain.dkim.selector}._domainkey.example.com`, ...splitTxt(`v=DKIM1; k=rsa; p=${other.dkim.publicKey}`));
    const checked = await nextCheck(apiKey, domain.id);
    expect(checked.status).toBe('partially_verified');
    expect(checked.records.find((r: { record: string }) => r.record === 'DKIM').status).toBe('failed');
    expect(checked.failureReason).toBe('The DKIM record is published with another value than the one we asked for');
    expect(checked.missingRecords).toEqual(['DKIM']);
  });

  it('polls every minute at first, backs off, and fails after 72 hours', async () => {
    const { apiKey } = await app.createOrg();
    const start = app.clock.now().getTime();
    const domain = await register(apiKey);
    const gaps: number[] = [];
    let current = await get(apiKey, domain.id);
    let checks = 0;
    while (current.status !== 'failed' && checks < 300) {
      const before = app.clock.now().getTime();
      current = await nextCheck(apiKey, domain.id);
      gaps.push(app.clock.now().getTime() - before);
      checks += 1;
    }
    expect(current).toMatchObject({ status: 'failed', isPolling: false, nextCheckAt: null });
    expect(current.failureReason).toBe('Not verified after 72 hours: the DKIM, MX, SPF records are not published yet');
    expect(current.records.filter((r: { required: boolean }) => r.required).every((r: { status: string }) => r.status === 'failed')).toBe(true);
    const elapsed = app.clock.now().getTime() - start;
    expect(elapsed).toBeGreaterThanOrEqual(72 * HOUR);
    expect(elapsed).toBeLessThan(73 * HOUR);
    expect(gaps.slice(1, 10).every((gap) => gap === 60_000)).toBe(true);
    expect(gaps.at(-2)).toBe(HOUR);
    expect(checks).toBeLessThan(130);
  });

  it('notices records removed after verification: temporary_failure, then verified again when they return', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    publishRecords(dns, domain.records);
    expect((await nextCheck(apiKey, domain.id)).status).toBe('verified');
    dns.clear();
    const lost = await nextCheck(apiKey, domain.id);
    expect(lost).toMatchObject({ status: 'temporary_failure', isPolling: true });
    expect((await nextCheck(apiKey, domain.id)).status).toBe('temporary_failure');
    publishRecords(dns, domain.records);
    expect(await nextCheck(apiKey, domain.id)).toMatchObject({ status: 'verified', isPolling: false });
  });

  it('fails a domain whose records stay gone for 72 hours, releasing the name', async () => {
    const a = await app.createOrg({ name: 'A' });
    const domain = await register(a.apiKey);
    publishRecords(dns, domain.records);
    await nextCheck(a.apiKey, domain.id);
    dns.clear();
    let current = await nextCheck(a.apiKey, domain.id);
    for (let i = 0; i < 200 && current.status !== 'failed'; i += 1) current = await nextCheck(a.apiKey, domain.id);
    expect(current).toMatchObject({ status: 'failed', verifiedAt: null });
    const b = await app.createOrg({ name: 'B' });
    expect((await app.request('POST', '/api/domains', { key: b.apiKey, body: { name: 'example.com' } })).status).toBe(201);
  });

  it('concludes nothing when the DNS does not answer, and asks again in 5 minutes', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    publishRecords(dns, domain.records);
    dns.servfail(`${domain.dkim.selector}._domainkey.example.com`);
    const checked = await nextCheck(apiKey, domain.id);
    expect(checked.status).toBe('pending');
    expect(checked.records.find((r: { record: string }) => r.record === 'DKIM').status).toBe('temporary_failure');
    expect(new Date(checked.nextCheckAt).getTime() - app.clock.now().getTime()).toBe(5 * 60_000);
    dns.servfail(`${domain.dkim.selector}._domainkey.example.com`, false);
    expect((await nextCheck(apiKey, domain.id)).status).toBe('verified');
  });

  it('checks a domain once even when two workers reach it together', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const outcomes = await Promise.all([checkDomain(app.runtime.deps, domain.id), checkDomain(app.runtime.deps, domain.id)]);
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(1);
    const [row] = await app.runtime.deps.db.select().from(domains).where(eq(domains.id, domain.id));
    expect(row!.checkAttempts).toBe(1);
  });

  it('checks due domains a few at a time: one whose DNS never answers does not hold up the next', { timeout: 30_000 }, async () => {
    const { apiKey } = await app.createOrg();
    const silent = await register(apiKey, { name: 'silent.example.com' });
    for (const record of silent.records) dns.mute(record.name);
    app.clock.advance(1);
    const answered = await register(apiKey, { name: 'answered.example.com' });
    publishRecords(dns, answered.records);
    let sweepEnded = false;
    const sweep = sweepDomainChecks(app.runtime.deps).then((checked) => {
      sweepEnded = true;
      return checked;
    });
    await expect.poll(async () => (await get(apiKey, answered.id)).status, { timeout: 5_000 }).toBe('verified');
    expect(sweepEnded).toBe(false);
    expect(await sweep).toBe(2);
    expect((await get(apiKey, silent.id)).records.map((r: { status: string }) => r.status)).toEqual(['temporary_failure', 'temporary_failure', 'temporary_failure', 'temporary_failure']);
  });
});

describe('POST /domains/{id}/verify', () => {
  it('starts a check at once, and restarts the chain of a failed domain', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    app.clock.advance(30_000);
    const response = await app.request('POST', `/api/domains/${domain.id}/verify`, { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Verification started' });
    expect((await get(apiKey, domain.id)).nextCheckAt).toBe(app.clock.now().toISOString());
    await app.runtime.deps.db.update(domains).set({ status: 'failed', chainStartedAt: null, nextCheckAt: null });
    await app.request('POST', `/api/domains/${domain.id}/verify`, { key: apiKey });
    expect(await get(apiKey, domain.id)).toMatchObject({ status: 'pending', isPolling: true, failureReason: null });
    publishRecords(dns, domain.records);
    await sweepDomainChecks(app.runtime.deps);
    expect((await get(apiKey, domain.id)).status).toBe('verified');
  });
});

describe('PATCH /domains/{id}', () => {
  it('changes the tracking defaults, which mail accepted afterwards takes, and records who changed them', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const response = await app.request('PATCH', `/api/domains/${domain.id}`, { key: apiKey, body: { open_tracking: true } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: domain.id, openTracking: true, clickTracking: false, records: domain.records });
    expect(await get(apiKey, domain.id)).toMatchObject({ openTracking: true, clickTracking: false });
    // A message accepted now takes the new default (a test key sends without delivering).
    await app.runtime.deps.db.update(domains).set({ status: 'verified', verifiedAt: app.clock.now() }).where(eq(domains.id, domain.id));
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    const sent = await app.request('POST', '/api/emails', { key: testKey, body: { from: 'hi@example.com', to: ['someone@example.net'], subject: 'Hi', html: '<p>Hi</p>' } });
    expect(sent.status, sent.text).toBe(200);
    const [email] = await app.runtime.deps.db.select().from(emails).where(eq(emails.id, sent.body.id));
    expect(email).toMatchObject({ trackOpens: true, trackClicks: false });

    const both = await app.request('PATCH', `/api/domains/${domain.id}`, { key: apiKey, body: { open_tracking: false, click_tracking: true } });
    expect(both.body).toMatchObject({ openTracking: false, clickTracking: true });
    // Asking for what is already set changes nothing and records nothing.
    expect((await app.request('PATCH', `/api/domains/${domain.id}`, { key: apiKey, body: { click_tracking: true } })).body).toMatchObject({ clickTracking: true });
    expect((await app.request('PATCH', `/api/domains/${domain.id}`, { key: apiKey, body: {} })).status).toBe(200);

    const audit = await app.runtime.deps.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId)).orderBy(auditEvents.id);
    const updates = audit.filter((entry) => entry.action === 'domain.updated');
    expect(updates.map((entry) => entry.details)).toEqual([
      { openTracking: { from: false, to: true } },
      { openTracking: { from: true, to: false }, clickTracking: { from: false, to: true } },
    ]);
    expect(updates[0]).toMatchObject({ targetType: 'domain', targetId: domain.id, targetLabel: 'example.com', actorKind: 'api_key' });
  });

  it('refuses what is not a boolean, unknown settings, the sandbox, and a test key', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const refused = [
      [{ open_tracking: 'yes' }, 'open_tracking'],
      [{ click_tracking: 'false' }, 'click_tracking'],
      [{ return_path: 'bounces' }, 'return_path'],
      [{ name: 'example.org' }, 'name'],
    ] as const;
    for (const [body, field] of refused) {
      const response = await app.request('PATCH', `/api/domains/${domain.id}`, { key: apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining(field) });
    }
    const sandboxId = app.runtime.deps.sandbox.id;
    const sandbox = await app.request('PATCH', `/api/domains/${sandboxId}`, { key: apiKey, body: { open_tracking: true } });
    expect(sandbox.status).toBe(409);
    expect(sandbox.body).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('sandbox') });
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    expect((await app.request('PATCH', `/api/domains/${domain.id}`, { key: testKey, body: { open_tracking: true } })).status).toBe(403);
    expect(await get(apiKey, domain.id)).toMatchObject({ openTracking: false, clickTracking: false });
  });
});

describe('DELETE /domains/{id}', () => {
  it('removes the domain, retires its DKIM key and revokes the keys pinned to it, at once', async () => {
    const { organizationId, apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const pinned = await keyFor(app, organizationId, 'sending_access', 'live', domain.id);
    const unpinned = await keyFor(app, organizationId, 'sending_access', 'live');
    const response = await app.request('DELETE', `/api/domains/${domain.id}`, { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Domain deleted' });
    expect((await app.request('GET', `/api/domains/${domain.id}`, { key: apiKey })).status).toBe(404);
    // The pinned key is refused on its very next request; the unpinned one still authenticates.
    expect((await app.request('POST', `/api/domains/${domain.id}/verify`, { key: pinned })).status).toBe(401);
    expect((await app.request('GET', '/api/domains', { key: unpinned })).status).toBe(403);
    const [key] = await app.runtime.deps.db.select().from(dkimKeys);
    expect(key).toMatchObject({ domainId: null, privateKeyEncrypted: null, retiredAt: app.clock.now() });
    expect(await signingKeyOf(app.runtime.deps, domain.id)).toBeNull();
    const types = (await app.runtime.deps.db.select().from(events)).map((e) => e.type);
    expect(types).toContain('domain.deleted');
  });
});

describe('GET /domains/{id}/domain-connect', () => {
  it('answers with a reason a person can act on when Domain Connect is not set up', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    const response = await app.request('GET', `/api/domains/${domain.id}/domain-connect`, { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ supported: false, reason: 'Domain Connect is not configured on this service' });
  });
});

describe('Inngest functions', () => {
  it('domain-check checks the domain named by the event; the sweep runs what is due', async () => {
    const { apiKey } = await app.createOrg();
    const domain = await register(apiKey);
    publishRecords(dns, domain.records);
    const [check, sweep] = functionsFor('domain-check', () => app.runtime.deps);
    const { result } = await new InngestTestEngine({ function: check! }).execute({ events: [{ name: 'domain-check/due', data: { id: domain.id } }] });
    expect(result).toEqual({ id: domain.id, outcome: 'verified' });
    app.clock.advance(6 * HOUR);
    const swept = await new InngestTestEngine({ function: sweep! }).execute({ events: [{ name: 'inngest/scheduled.timer', data: {} }] });
    expect(swept.result).toEqual({ checked: 1 });
  });
});
