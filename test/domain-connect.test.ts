import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '@/server/config';
import { checkDomainConnect, type DomainConnectAnswer } from '@/server/services/domains/connect';
import { buildDomainRecords, type DnsRecord } from '@/server/services/domains/records';
import { guardConnections, type ConnectGuard } from './support/connect-guard';
import { startDnsServer, type DnsServer } from './support/dns';
import { selfSignedCertificate, startLoopbackServer, type LoopbackServer } from './support/loopback-https';

const signing = crypto.generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const dkimPublicKey = crypto
  .generateKeyPairSync('rsa', { modulusLength: 1024 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');

const MAIL_HOST = 'mx.eumail.example';
const template = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'domain-connect-template.json'), 'utf8'));

function domainFor(name: string): { name: string; records: DnsRecord[] } {
  return { name, records: buildDomainRecords({ name, selector: 'eu1abc', publicKey: dkimPublicKey, returnPath: 'send', mailHost: MAIL_HOST }) };
}

describe('checkDomainConnect', () => {
  let dns: DnsServer;
  let provider: LoopbackServer;
  let ca: string;
  let guard: ConnectGuard;
  let routes: Record<string, (res: import('node:http').ServerResponse) => void>;

  const configWith = (env: Record<string, string> = {}): Config =>
    loadConfig({
      NODE_ENV: 'test',
      DNS_SERVERS: dns.address,
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      MAIL_HOST,
      DOMAIN_CONNECT_PROVIDER_ID: 'eumail.example',
      DOMAIN_CONNECT_SERVICE_ID: 'mail',
      DOMAIN_CONNECT_PRIVATE_KEY: signing.privateKey,
      DOMAIN_CONNECT_KEY_HOST: '_dck1',
      ...env,
    });

  const settings = () => ({
    providerId: 'provider.example',
    providerName: 'Provider',
    providerDisplayName: 'Provider DNS',
    urlSyncUX: `https://ux.provider.example:${provider.port}`,
    urlAPI: `https://api.provider.example:${provider.port}/api`,
    width: 750,
    height: 750,
  });
  const json = (body: unknown) => (res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const SETTINGS_PATH = '/v2/example.com/settings';
  const TEMPLATE_PATH = '/api/v2/domainTemplates/providers/eumail.example/services/mail';

  const check = (domain = domainFor('example.com'), config = configWith()): Promise<DomainConnectAnswer> => checkDomainConnect({ config }, domain, { ca });
  const reasonOf = (answer: DomainConnectAnswer) => (answer.supported ? 'supported' : answer.reason);

  beforeAll(async () => {
    dns = await startDnsServer();
    const certificate = await selfSignedCertificate(['dc.provider.example', 'api.provider.example', 'ux.provider.example']);
    ca = certificate.cert;
    provider = await startLoopbackServer((req, res) => {
      const route = routes[req.url ?? ''];
      if (route) route(res);
      else res.writeHead(404).end();
    }, certificate);
  });

  afterAll(async () => {
    await Promise.all([dns?.close(), provider?.close()]);
  });

  beforeEach(() => {
    dns.clear();
    dns.set('_domainconnect.example.com', 'TXT', [`dc.provider.example:${provider.port}`]);
    dns.set('dc.provider.example', 'A', ['127.0.0.1']);
    dns.set('api.provider.example', 'A', ['127.0.0.1']);
    routes = { [SETTINGS_PATH]: json(settings()), [TEMPLATE_PATH]: (res) => res.writeHead(200).end() };
    provider.requests.length = 0;
    guard = guardConnections();
  });

  afterEach(() => guard.restore());

  const applyParts = (answer: DomainConnectAnswer) => {
    if (!answer.supported) throw new Error(`not supported: ${answer.reason}`);
    const url = new URL(answer.applyUrl);
    const query = answer.applyUrl.slice(answer.applyUrl.indexOf('?') + 1);
    const signed = query.slice(0, query.indexOf('&sig='));
    return { url, params: url.searchParams, signed };
  };

  it('answers with a signed apply URL carrying the template variables', async () => {
    const answer = await check();
    expect(answer).toMatchObject({ supported: true, providerId: 'provider.example', providerName: 'Provider DNS' });
    const { url, params, signed } = applyParts(answer);
    expect(`${url.origin}${url.pathname}`).toBe(`https://ux.provider.example:${provider.port}/v2/domainTemplates/providers/eumail.example/services/mail/apply`);
    expect(Object.fromEntries(params)).toEqual({
      domain: 'example.com',
      dkimselector: 'eu1abc',
      dkimkey: dkimPublicKey,
      returnpath: 'send',
      mxhost: MAIL_HOST,
      spfinclude: MAIL_HOST,
      dmarcpolicy: 'p=none;',
      sig: expect.any(String),
      key: '_dck1',
    });
    // The DNS provider's check: the query string before &sig=, against the public key published at key.
    expect(crypto.verify('sha256', Buffer.from(signed), signing.publicKey, Buffer.from(params.get('sig')!, 'base64'))).toBe(true);
    expect(crypto.verify('sha256', Buffer.from(signed.replace('mxhost=mx.', 'mxhost=evil.')), signing.publicKey, Buffer.from(params.get('sig')!, 'base64'))).toBe(false);
    expect(provider.requests).toEqual([`GET ${SETTINGS_PATH}`, `GET ${TEMPLATE_PATH}`]);
  });

  it('passes a subdomain as host, discovering on the registrable domain', async () => {
    const { params, signed } = applyParts(await check(domainFor('mail.example.com')));
    expect(params.get('domain')).toBe('example.com');
    expect(params.get('host')).toBe('mail');
    expect(signed.startsWith('domain=example.com&host=mail&dkimselector=eu1abc&')).toBe(true);
    expect(dns.queries).toContain('TXT _domainconnect.example.com');
  });

  it('fills the published template into exactly the records the domain must publish', async () => {
    const domain = domainFor('example.com');
    const { params } = applyParts(await check(domain));
    const fill = (text: string) => text.replace(/%(\w+)%/g, (_, name: string) => params.get(name) ?? `<missing ${name}>`);
    const filled = template.records.map((record: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(record).map(([k, v]) => [k, typeof v === 'string' ? fill(v) : v])),
    );
    const ours = (kind: DnsRecord['record']) => domain.records.find((r) => r.record === kind)!;
    expect(filled.find((r: any) => r.groupId === 'dkim')).toMatchObject({ type: 'TXT', host: ours('DKIM').host, data: ours('DKIM').value });
    expect(filled.find((r: any) => r.type === 'MX')).toMatchObject({ host: ours('MX').host, pointsTo: ours('MX').value, priority: ours('MX').priority });
    expect(filled.find((r: any) => r.type === 'SPFM')).toMatchObject({ host: ours('SPF').host, spfRules: `include:${MAIL_HOST}` });
    expect(ours('SPF').value).toContain(`include:${MAIL_HOST}`);
    expect(filled.find((r: any) => r.groupId === 'dmarc')).toMatchObject({ type: 'TXT', host: ours('DMARC').host, data: ours('DMARC').value });
    expect(template.syncPubKeyDomain).toBeTruthy();
    expect(template.warnPhishing).toBeUndefined();
  });

  it('says when Domain Connect is not configured, without any lookup', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DNS_SERVERS: dns.address });
    expect(await check(domainFor('example.com'), config)).toEqual({ supported: false, reason: 'Domain Connect is not configured on this service' });
    expect(dns.queries).toEqual([]);
  });

  it('says when the domain has no _domainconnect record', async () => {
    dns.clear();
    expect(reasonOf(await check())).toBe(
      'Your DNS provider does not support Domain Connect (no _domainconnect record for example.com); add the records by hand',
    );
    expect(guard.attempts).toEqual([]);
  });

  it('says when the provider has no settings for the domain (404)', async () => {
    delete routes[SETTINGS_PATH];
    expect(reasonOf(await check())).toBe('Your DNS provider has no Domain Connect settings for example.com (HTTP 404); add the records by hand');
  });

  it('says when the settings are not valid JSON or lack what the flow needs', async () => {
    routes[SETTINGS_PATH] = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"providerId": ');
    expect(reasonOf(await check())).toMatch(/settings for example\.com are not valid JSON/);
    routes[SETTINGS_PATH] = json({ ...settings(), providerId: undefined });
    expect(reasonOf(await check())).toMatch(/have no providerId/);
    routes[SETTINGS_PATH] = json({ ...settings(), urlSyncUX: undefined });
    expect(reasonOf(await check())).toMatch(/^Provider DNS does not offer the one-click \(synchronous\) Domain Connect flow/);
    routes[SETTINGS_PATH] = json({ ...settings(), urlAPI: 'http://api.provider.example/' });
    expect(reasonOf(await check())).toMatch(/do not give valid https urlSyncUX and urlAPI/);
    routes[SETTINGS_PATH] = (res) => res.writeHead(200).end(Buffer.alloc(65 * 1024, ' '));
    expect(reasonOf(await check())).toMatch(/could not be reached: the answer of dc\.provider\.example is larger than 65536 bytes/);
  });

  it('does not follow a redirect of the settings request', async () => {
    routes[SETTINGS_PATH] = (res) => res.writeHead(302, { location: `https://api.provider.example:${provider.port}/elsewhere` }).end();
    routes['/elsewhere'] = json(settings());
    expect(reasonOf(await check())).toMatch(/answered with a redirect \(HTTP 302\), which is not followed/);
    expect(provider.requests).toEqual([`GET ${SETTINGS_PATH}`]);
  });

  it('says when the provider does not have our template', async () => {
    delete routes[TEMPLATE_PATH];
    expect(reasonOf(await check())).toBe(
      'Provider DNS does not have the EU Mail template yet (provider eumail.example, service mail); add the records by hand',
    );
  });

  it('refuses a provider host that resolves to a private address, without connecting', async () => {
    const strict = configWith({ WEBHOOK_ALLOW_PRIVATE_CIDRS: '' });
    const before = provider.connections();
    dns.set('dc.provider.example', 'A', ['10.1.2.3']);
    expect(reasonOf(await check(domainFor('example.com'), strict))).toMatch(
      /settings for example\.com was not contacted: dc\.provider\.example resolves to 10\.1\.2\.3, a private network address \(10\.0\.0\.0\/8\)/,
    );
    dns.set('dc.provider.example', 'A', ['127.0.0.1']);
    expect(reasonOf(await check(domainFor('example.com'), strict))).toMatch(/resolves to 127\.0\.0\.1, a loopback address/);
    expect(guard.attempts).toEqual([]);
    expect(provider.connections()).toBe(before);
  });

  it('refuses a template API that resolves to a metadata address, after the settings call only', async () => {
    dns.set('api.provider.example', 'A', ['169.254.169.254']);
    expect(reasonOf(await check())).toMatch(/was not contacted: api\.provider\.example resolves to 169\.254\.169\.254, a link-local address/);
    expect(provider.requests).toEqual([`GET ${SETTINGS_PATH}`]);
    expect(guard.attempts.map((a) => a.host)).toEqual(['127.0.0.1']);
  });
});
