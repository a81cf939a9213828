import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeOutboundConnections } from '@/server/net/outbound';
import { OPERATOR } from '@/server/services/audit/record';
import { setRateLimit } from '@/server/services/organizations/organizations';
import { sweepWebhookDeliveries } from '@/server/services/webhooks/deliver';
import { startTestApp, type TestApp } from './support/app';
import { guardConnections, type ConnectGuard } from './support/connect-guard';
import type { DnsServer } from './support/dns';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * The hostile-URL table of webhook endpoints: every spelling of an internal address refused with a
 * 400 naming `url` when an endpoint is saved (POST and PATCH), and again before every delivery
 * attempt, when a name that was public at creation has turned private since (DNS rebinding).
 *
 * Nothing here ever reaches past loopback: the connect guard fails any non-loopback dial before a
 * packet leaves, and records every dial, so "no connection was attempted" is asserted, not hoped.
 * The public addresses below are only ever DNS answers or stored URLs; nothing connects to them.
 */

// Public addresses (no documentation range): accepted at creation, never dialled.
const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V4_OTHER = '1.1.1.1';
const PUBLIC_V6 = '2606:4700:4700::1111';

type Answers = { A?: readonly string[]; AAAA?: readonly string[] };

/** Replaces every record of `name` with these answers. */
function answer(dns: DnsServer, name: string, answers: Answers): void {
  dns.remove(name);
  if (answers.A) dns.set(name, 'A', [...answers.A]);
  if (answers.AAAA) dns.set(name, 'AAAA', [...answers.AAAA]);
}

/** An organization whose API key is not rate limited within this file's hundreds of requests. */
async function unlimitedOrg(app: TestApp): Promise<string> {
  const { organizationId, apiKey } = await app.createOrg({ plan: '2m' });
  await setRateLimit(app.runtime.deps, organizationId, 1_000_000, OPERATOR);
  return apiKey;
}

/** What the app's loopback DNS server was asked about one name ("A hooks.example.com", …). */
const queriesAbout = (dns: DnsServer, name: string) => dns.queries.filter((q) => q.endsWith(` ${name}`));

let guard: ConnectGuard;
/** Dials other than the test's own requests to the app (the API calls made with fetch). */
const outboundDials = (app: TestApp) => guard.attempts.filter((a) => !(a.host === '127.0.0.1' && a.port === Number(new URL(app.url).port)));

beforeEach(() => {
  guard = guardConnections();
});
afterEach(async () => {
  guard.restore();
  await closeOutboundConnections();
});

interface HostileRow {
  /** What the row is about, in the test's name. */
  what: string;
  url: string;
  /** The refusal's reason, after "url: ". */
  reason: RegExp;
  /** DNS answers for names in the URL; without any, the refusal must come before any lookup. */
  dns?: Record<string, Answers | 'servfail' | 'silent'>;
}

const LOOPBACK = /127\.0\.0\.1, a loopback address/;
const NOT_HTTP = /the URL must start with http:\/\/ or https:\/\//;
const INVALID = /is not a valid URL/;
const CREDENTIALS = /the URL must not contain a user name or password/;
const NOT_PUBLIC_NAME = /is not a public host name/;

const HOSTILE: HostileRow[] = [
  // Not an absolute http(s) URL.
  { what: 'ftp scheme', url: 'ftp://hooks.example.com/x', reason: /\(got ftp:\)/ },
  { what: 'javascript: URL', url: 'javascript:alert(1)', reason: /\(got javascript:\)/ },
  { what: 'file: URL', url: 'file:///etc/passwd', reason: /\(got file:\)/ },
  { what: 'data: URL', url: 'data:text/plain,hello', reason: NOT_HTTP },
  { what: 'gopher to loopback', url: 'gopher://127.0.0.1:6379/_INFO', reason: NOT_HTTP },
  { what: 'relative path', url: '/hook', reason: INVALID },
  { what: 'no scheme', url: 'hooks.example.com/x', reason: INVALID },
  { what: 'scheme-relative', url: '//hooks.example.com/x', reason: INVALID },
  { what: 'empty string', url: '', reason: INVALID },
  { what: 'out-of-range IPv4', url: 'http://0x100000000/', reason: INVALID },
  { what: 'five-part dotted number', url: 'http://1.2.3.4.5/', reason: INVALID },
  { what: 'IPv6 zone id', url: 'http://[fe80::1%25eth0]/', reason: INVALID },
  // Credentials, whichever side of the @ the internal address is on.
  { what: 'user and password', url: 'http://user:pass@hooks.example.com/', reason: CREDENTIALS },
  { what: 'user only', url: 'https://user@hooks.example.com/', reason: CREDENTIALS },
  { what: 'password only', url: 'https://:pass@hooks.example.com/', reason: CREDENTIALS },
  { what: 'public name as user, loopback as host', url: 'http://hooks.example.com@127.0.0.1/', reason: CREDENTIALS },
  { what: 'loopback as user, public name as host', url: 'http://127.0.0.1:80@hooks.example.com/', reason: CREDENTIALS },
  // Names that cannot be public, in every spelling.
  { what: 'single-label name', url: 'http://intranet/', reason: NOT_PUBLIC_NAME },
  { what: 'localhost', url: 'http://localhost/', reason: NOT_PUBLIC_NAME },
  { what: 'localhost with a trailing dot', url: 'http://localhost./', reason: NOT_PUBLIC_NAME },
  { what: 'LOCALHOST in capitals with a port', url: 'http://LOCALHOST:8080/', reason: NOT_PUBLIC_NAME },
  { what: 'fullwidth localhost', url: 'http://ｌｏｃａｌｈｏｓｔ/', reason: NOT_PUBLIC_NAME },
  { what: 'a .localhost subdomain', url: 'http://app.localhost/', reason: NOT_PUBLIC_NAME },
  { what: 'an empty label', url: 'http://hooks..example.com/', reason: /is not a valid host name/ },
  // IPv4 loopback literals, every spelling the URL parser reads as 127.0.0.1.
  { what: 'dotted loopback', url: 'http://127.0.0.1/', reason: LOOPBACK },
  { what: 'short form 127.1', url: 'http://127.1/', reason: LOOPBACK },
  { what: 'short form 127.0.1', url: 'http://127.0.1/', reason: LOOPBACK },
  { what: 'octal first part', url: 'http://0177.0.0.1/', reason: LOOPBACK },
  { what: 'one octal number', url: 'http://017700000001/', reason: LOOPBACK },
  { what: 'one hex number', url: 'http://0x7f000001/', reason: LOOPBACK },
  { what: 'one hex number, trailing dot', url: 'http://0x7f000001./', reason: LOOPBACK },
  { what: 'one decimal number', url: 'http://2130706433/', reason: LOOPBACK },
  { what: 'hex first part', url: 'http://0x7f.0.0.1/', reason: LOOPBACK },
  { what: 'hex short form', url: 'http://0x7F.1/', reason: LOOPBACK },
  { what: 'trailing dot', url: 'http://127.0.0.1./', reason: LOOPBACK },
  { what: 'percent-encoded host', url: 'http://%31%32%37.0.0.1/', reason: LOOPBACK },
  { what: 'ideographic full stops', url: 'http://127。0。0。1/', reason: LOOPBACK },
  { what: 'enclosed alphanumerics', url: 'http://①②⑦.⓪.⓪.①/', reason: LOOPBACK },
  { what: 'a newline inside the host', url: 'http://127.0.0\n.1/', reason: LOOPBACK },
  { what: 'no slashes after the scheme', url: 'http:127.0.0.1/', reason: LOOPBACK },
  { what: 'backslashes', url: 'http:\\\\127.0.0.1\\hook', reason: LOOPBACK },
  { what: 'capital scheme, surrounding spaces', url: '  HTTP://127.0.0.1:80/  ', reason: LOOPBACK },
  { what: 'https with a port', url: 'https://127.0.0.1:8443/hook', reason: LOOPBACK },
  // Other internal IPv4 ranges.
  { what: 'private 10/8', url: 'http://10.0.0.1/', reason: /10\.0\.0\.1, a private network address/ },
  { what: 'private 10/8 in octal', url: 'http://012.0.0.1/', reason: /10\.0\.0\.1, a private network address/ },
  { what: 'private 172.16/12', url: 'http://172.16.5.4/', reason: /172\.16\.5\.4, a private network address/ },
  { what: 'private 172.16/12, top', url: 'http://172.31.255.255/', reason: /a private network address/ },
  { what: 'private 192.168/16', url: 'http://192.168.1.1/', reason: /192\.168\.1\.1, a private network address/ },
  { what: 'private 192.168/16 as one hex number', url: 'http://0xc0a80101/', reason: /192\.168\.1\.1, a private network address/ },
  { what: 'cloud metadata', url: 'http://169.254.169.254/latest/meta-data', reason: /169\.254\.169\.254, a link-local address/ },
  { what: 'cloud metadata as one number', url: 'http://2852039166/latest/meta-data', reason: /169\.254\.169\.254, a link-local address/ },
  { what: 'CGNAT', url: 'http://100.64.0.1/', reason: /100\.64\.0\.1, a carrier-grade NAT address/ },
  { what: 'unspecified', url: 'http://0.0.0.0/', reason: /0\.0\.0\.0, a "this network" address/ },
  { what: 'unspecified as 0', url: 'http://0/', reason: /0\.0\.0\.0, a "this network" address/ },
  { what: 'multicast', url: 'http://224.0.0.1/', reason: /224\.0\.0\.1, a multicast address/ },
  { what: 'broadcast', url: 'http://255.255.255.255/', reason: /255\.255\.255\.255, a reserved or broadcast address/ },
  { what: 'broadcast as one number', url: 'http://4294967295/', reason: /255\.255\.255\.255, a reserved or broadcast address/ },
  { what: 'reserved 240/4', url: 'http://240.0.0.1/', reason: /reserved or broadcast/ },
  { what: 'benchmarking', url: 'http://198.18.0.1/', reason: /benchmarking/ },
  { what: 'IETF protocol 192.0.0/24', url: 'http://192.0.0.8/', reason: /IETF protocol/ },
  { what: '6to4 relay', url: 'http://192.88.99.1/', reason: /6to4 relay/ },
  { what: 'documentation 192.0.2/24', url: 'http://192.0.2.1/', reason: /192\.0\.2\.1, a documentation address/ },
  { what: 'documentation 198.51.100/24', url: 'http://198.51.100.7/', reason: /198\.51\.100\.7, a documentation address/ },
  { what: 'documentation 203.0.113/24', url: 'http://203.0.113.9/', reason: /203\.0\.113\.9, a documentation address/ },
  // IPv6 literals, and IPv4 addresses carried inside them.
  { what: 'IPv6 unspecified', url: 'http://[::]/', reason: /the unspecified address/ },
  { what: 'IPv6 loopback', url: 'http://[::1]/', reason: /::1, a loopback address/ },
  { what: 'IPv6 loopback, long form', url: 'http://[0:0:0:0:0:0:0:1]:8080/', reason: /::1, a loopback address/ },
  { what: 'IPv4-mapped loopback, dotted', url: 'http://[::ffff:127.0.0.1]/', reason: /IPv4-mapped form of 127\.0\.0\.1, a loopback/ },
  { what: 'IPv4-mapped loopback, hex', url: 'http://[::ffff:7f00:1]/', reason: /IPv4-mapped form of 127\.0\.0\.1, a loopback/ },
  { what: 'IPv4-mapped loopback, long form', url: 'http://[0:0:0:0:0:ffff:127.0.0.1]/', reason: /IPv4-mapped form of 127\.0\.0\.1/ },
  { what: 'IPv4-mapped private', url: 'http://[::ffff:10.0.0.1]/', reason: /IPv4-mapped form of 10\.0\.0\.1, a private/ },
  { what: 'IPv4-mapped metadata', url: 'http://[::ffff:a9fe:a9fe]/', reason: /IPv4-mapped form of 169\.254\.169\.254/ },
  { what: 'IPv4-compatible loopback', url: 'http://[::127.0.0.1]/', reason: /outside the global unicast range/ },
  { what: 'IPv4-translated loopback', url: 'http://[::ffff:0:127.0.0.1]/', reason: /outside the global unicast range/ },
  { what: 'NAT64 private', url: 'http://[64:ff9b::10.0.0.1]/', reason: /NAT64 form of 10\.0\.0\.1, a private/ },
  { what: 'NAT64 loopback', url: 'http://[64:ff9b::7f00:1]/', reason: /NAT64 form of 127\.0\.0\.1, a loopback/ },
  { what: 'local-use NAT64', url: 'http://[64:ff9b:1::a00:1]/', reason: /outside the global unicast range/ },
  { what: '6to4 private', url: 'http://[2002:a00:1::]/', reason: /6to4 form of 10\.0\.0\.1, a private/ },
  { what: '6to4 loopback', url: 'http://[2002:7f00:1::1]/', reason: /6to4 form of 127\.0\.0\.1, a loopback/ },
  { what: 'Teredo', url: 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', reason: /IETF protocol address/ },
  { what: 'IPv6 link-local', url: 'http://[fe80::1]/', reason: /fe80::1, a link-local address/ },
  { what: 'IPv6 site-local', url: 'http://[fec0::1]/', reason: /site-local/ },
  { what: 'IPv6 unique local fc00::/7', url: 'http://[fc00::1]/', reason: /fc00::1, a unique local/ },
  { what: 'IPv6 unique local fd', url: 'http://[fd12:3456::1]/', reason: /unique local/ },
  { what: 'IPv6 multicast', url: 'http://[ff02::1]/', reason: /multicast/ },
  { what: 'IPv6 discard-only', url: 'http://[100::1]/', reason: /discard-only/ },
  { what: 'IPv6 documentation', url: 'http://[2001:db8::1]/', reason: /2001:db8::1, a documentation address/ },
  // Names, refused for what they resolve to (through the app's DNS_SERVERS) at this moment.
  { what: 'a name resolving to 10.0.0.1', url: 'https://internal.example.com/hook', dns: { 'internal.example.com': { A: ['10.0.0.1'] } }, reason: /internal\.example\.com resolves to 10\.0\.0\.1, a private network address/ },
  { what: 'that name in capitals with a trailing dot', url: 'https://INTERNAL.Example.COM./hook', dns: { 'internal.example.com': { A: ['10.0.0.1'] } }, reason: /internal\.example\.com resolves to 10\.0\.0\.1/ },
  { what: 'a name resolving to 127.0.0.1', url: 'http://loop.example.com/', dns: { 'loop.example.com': { A: ['127.0.0.1'] } }, reason: /loop\.example\.com resolves to 127\.0\.0\.1, a loopback address/ },
  { what: 'a name resolving to 169.254.169.254', url: 'http://meta.example.com/', dns: { 'meta.example.com': { A: ['169.254.169.254'] } }, reason: /resolves to 169\.254\.169\.254, a link-local/ },
  { what: 'a name resolving to 0.0.0.0', url: 'http://zero.example.com/', dns: { 'zero.example.com': { A: ['0.0.0.0'] } }, reason: /resolves to 0\.0\.0\.0/ },
  { what: 'a name resolving to 100.64.0.1', url: 'http://cgnat.example.com/', dns: { 'cgnat.example.com': { A: ['100.64.0.1'] } }, reason: /carrier-grade NAT/ },
  { what: 'a name resolving to AAAA ::1', url: 'http://loop6.example.com/', dns: { 'loop6.example.com': { AAAA: ['::1'] } }, reason: /loop6\.example\.com resolves to ::1, a loopback address/ },
  { what: 'a name resolving to AAAA ::ffff:10.0.0.1', url: 'http://mapped.example.com/', dns: { 'mapped.example.com': { AAAA: ['::ffff:10.0.0.1'] } }, reason: /mapped\.example\.com resolves to .*, the IPv4-mapped form of 10\.0\.0\.1/ },
  { what: 'a name resolving to AAAA NAT64 metadata', url: 'http://nat64.example.com/', dns: { 'nat64.example.com': { AAAA: ['64:ff9b::a9fe:a9fe'] } }, reason: /NAT64 form of 169\.254\.169\.254/ },
  { what: 'a name resolving to AAAA fd00::1', url: 'http://ula.example.com/', dns: { 'ula.example.com': { AAAA: ['fd00::1'] } }, reason: /resolves to fd00::1, a unique local/ },
  { what: 'one public and one private A record', url: 'http://mixed.example.com/', dns: { 'mixed.example.com': { A: [PUBLIC_V4, '10.0.0.1'] } }, reason: /mixed\.example\.com resolves to 10\.0\.0\.1/ },
  { what: 'a private A record first, then a public one', url: 'http://mixed.example.com/', dns: { 'mixed.example.com': { A: ['192.168.0.10', PUBLIC_V4] } }, reason: /resolves to 192\.168\.0\.10/ },
  { what: 'a public A and a private AAAA record', url: 'http://dual.example.com/', dns: { 'dual.example.com': { A: [PUBLIC_V4], AAAA: ['fe80::1'] } }, reason: /dual\.example\.com resolves to fe80::1, a link-local/ },
  { what: 'a public AAAA and a private A record', url: 'http://dual.example.com/', dns: { 'dual.example.com': { A: ['127.0.0.1'], AAAA: [PUBLIC_V6] } }, reason: /dual\.example\.com resolves to 127\.0\.0\.1/ },
  { what: 'a name that does not resolve (NXDOMAIN)', url: 'http://nowhere.example.com/', dns: {}, reason: /nowhere\.example\.com does not resolve to any address/ },
  { what: 'a name with neither A nor AAAA', url: 'http://txt-only.example.com/', dns: { 'txt-only.example.com': {} }, reason: /txt-only\.example\.com does not resolve to any address/ },
  { what: 'a name whose DNS fails (SERVFAIL)', url: 'http://broken.example.com/', dns: { 'broken.example.com': 'servfail' }, reason: /the DNS lookup of broken\.example\.com failed/ },
  { what: 'a name whose DNS never answers', url: 'http://silent.example.com/', dns: { 'silent.example.com': 'silent' }, reason: /the DNS lookup of silent\.example\.com did not finish within 5000 ms/ },
];

describe('without WEBHOOK_ALLOW_PRIVATE_CIDRS', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({ env: { WEBHOOK_RETRY_BASE_MS: '1000' } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  const setUpDns = (row: Pick<HostileRow, 'dns'>) => {
    for (const [name, answers] of Object.entries(row.dns ?? {})) {
      if (answers === 'servfail') app.dns.servfail(name);
      else if (answers === 'silent') app.dns.mute(name);
      else if (!answers.A && !answers.AAAA) app.dns.txt(name, 'v=none');
      else answer(app.dns, name, answers);
    }
  };

  const expectRefusal = (response: { status: number; body: any }, field: 'url' | 'events', reason: RegExp) => {
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.error).toMatch(new RegExp(`^${field}: `));
    expect(response.body.error).toMatch(reason);
  };

  const storedWebhooks = async () => (await app.request('GET', '/api/webhooks', { key })).body.data as Array<{ id: string; url: string; events: string[] }>;

  describe('at creation (POST /api/webhooks)', () => {
    beforeAll(async () => {
      await app.reset();
      key = await unlimitedOrg(app);
    });
    beforeEach(() => app.dns.clear());

    it.each(HOSTILE.map((row) => [row.what, row] as const))('refuses %s', async (_what, row) => {
      setUpDns(row);
      const response = await app.request('POST', '/api/webhooks', { key, body: { url: row.url, events: ['*'] } });
      expectRefusal(response, 'url', row.reason);
      expect(await storedWebhooks()).toEqual([]);
      // Refused before any connection; and before any lookup unless the row is about DNS answers.
      expect(outboundDials(app)).toEqual([]);
      if (!row.dns) expect(app.dns.queries).toEqual([]);
    });

    it.each([
      ['no event', [], /^events: name at least one event type/],
      ['an event outside the catalogue', ['email.nope'], /^events: "email\.nope" is not an event type/],
      ['an unknown event beside *', ['*', 'email.nope'], /^events: "email\.nope" is not an event type/],
      ['an event type of the wrong case', ['Domain.Created'], /^events: "Domain\.Created" is not an event type/],
    ])('refuses %s, naming events', async (_what, events, reason) => {
      app.dns.a('hooks.example.com', PUBLIC_V4);
      const response = await app.request('POST', '/api/webhooks', { key, body: { url: 'https://hooks.example.com/hook', events } });
      expectRefusal(response, 'events', reason);
      expect(await storedWebhooks()).toEqual([]);
    });

    it('names the field when the body itself is wrong', async () => {
      const cases: Array<[unknown, 'url' | 'events', RegExp]> = [
        [{ events: ['*'] }, 'url', /is required \(or endpoint, its other name\)/],
        [{ url: 42, events: ['*'] }, 'url', /expected string/],
        [{ url: `https://hooks.example.com/${'a'.repeat(4_100)}`, events: ['*'] }, 'url', /at most 4096 characters/],
        [{ url: `https://hooks.example.com/${'a'.repeat(2_100)}`, events: ['*'] }, 'url', /at most 2048 characters/],
        [{ url: 'https://hooks.example.com/hook' }, 'events', /expected array/],
        [{ url: 'https://hooks.example.com/hook', events: 'domain.created' }, 'events', /expected array/],
      ];
      for (const [body, field, reason] of cases) expectRefusal(await app.request('POST', '/api/webhooks', { key, body }), field, reason);
      expect(await storedWebhooks()).toEqual([]);
      expect(app.dns.queries).toEqual([]);
    });

    it('accepts public names and literals, resolving the name but never connecting', async () => {
      app.dns.a('hooks.example.com', PUBLIC_V4);
      app.dns.a('other.example.net', PUBLIC_V4_OTHER);
      app.dns.set('v6.example.org', 'AAAA', [PUBLIC_V6]);
      const accepted: Array<[string, string]> = [
        [`http://hooks.example.com:${receiver.port}/hook`, `http://hooks.example.com:${receiver.port}/hook`],
        ['https://Other.Example.NET./in?x=1', 'https://other.example.net./in?x=1'],
        ['https://v6.example.org/hook', 'https://v6.example.org/hook'],
        [`http://${PUBLIC_V4}:8080/hook`, `http://${PUBLIC_V4}:8080/hook`],
        [`https://[${PUBLIC_V6}]/hook`, `https://[${PUBLIC_V6}]/hook`],
        // 64:ff9b::/96 carrying a public IPv4 address is public: only what it carries decides.
        ['https://[64:ff9b::5db8:d822]/hook', 'https://[64:ff9b::5db8:d822]/hook'],
      ];
      for (const [url, stored] of accepted) {
        const created = await app.request('POST', '/api/webhooks', { key, body: { url, events: ['domain.created'] } });
        expect(created.status, url).toBe(201);
        expect(created.body.url).toBe(stored);
        await app.request('DELETE', `/api/webhooks/${created.body.id}`, { key });
      }
      // Each name was looked up once (A and AAAA); the literals not at all; nothing was dialled.
      expect([...app.dns.queries].sort()).toEqual(
        ['A hooks.example.com', 'AAAA hooks.example.com', 'A other.example.net', 'AAAA other.example.net', 'A v6.example.org', 'AAAA v6.example.org'].sort(),
      );
      expect(outboundDials(app)).toEqual([]);
      expect(receiver.received).toEqual([]);
    });
  });

  describe('on update (PATCH /api/webhooks/{id}): the URL is checked again', () => {
    let webhookId: string;
    const original = 'https://hooks.example.com/hook';

    beforeAll(async () => {
      await app.reset();
      key = await unlimitedOrg(app);
      app.dns.a('hooks.example.com', PUBLIC_V4);
      const created = await app.request('POST', '/api/webhooks', { key, body: { url: original, events: ['domain.created'] } });
      expect(created.status).toBe(201);
      webhookId = created.body.id;
    });
    beforeEach(() => {
      app.dns.clear();
      app.dns.a('hooks.example.com', PUBLIC_V4);
    });

    const PATCHED = HOSTILE.filter((row) =>
      [
        'javascript: URL',
        'no scheme',
        'user and password',
        'single-label name',
        'localhost with a trailing dot',
        'one hex number',
        'one decimal number',
        'octal first part',
        'cloud metadata',
        'IPv4-mapped loopback, hex',
        'NAT64 private',
        'IPv6 documentation',
        'a name resolving to 10.0.0.1',
        'a name resolving to AAAA ::1',
        'a name resolving to AAAA ::ffff:10.0.0.1',
        'one public and one private A record',
        'a name that does not resolve (NXDOMAIN)',
      ].includes(row.what),
    );

    it('covers the rows it means to', () => expect(PATCHED).toHaveLength(17));

    it.each(PATCHED.map((row) => [row.what, row] as const))('refuses %s and changes nothing', async (_what, row) => {
      setUpDns(row);
      const response = await app.request('PATCH', `/api/webhooks/${webhookId}`, { key, body: { url: row.url, events: ['*'] } });
      expectRefusal(response, 'url', row.reason);
      expect(await storedWebhooks()).toEqual([expect.objectContaining({ id: webhookId, url: original, events: ['domain.created'] })]);
      expect(outboundDials(app)).toEqual([]);
    });

    it('refuses the stored URL itself once its name has turned private', async () => {
      answer(app.dns, 'hooks.example.com', { A: ['10.0.0.1'] });
      const response = await app.request('PATCH', `/api/webhooks/${webhookId}`, { key, body: { url: original } });
      expectRefusal(response, 'url', /hooks\.example\.com resolves to 10\.0\.0\.1/);
    });

    it.each([
      ['no event', [], /^events: name at least one/],
      ['an event outside the catalogue', ['email.nope'], /^events: "email\.nope" is not an event type/],
    ])('refuses %s, naming events', async (_what, events, reason) => {
      const response = await app.request('PATCH', `/api/webhooks/${webhookId}`, { key, body: { events } });
      expectRefusal(response, 'events', reason);
      expect(await storedWebhooks()).toEqual([expect.objectContaining({ url: original, events: ['domain.created'] })]);
    });

    it('accepts a public URL, without connecting', async () => {
      app.dns.a('next.example.com', PUBLIC_V4_OTHER);
      const response = await app.request('PATCH', `/api/webhooks/${webhookId}`, { key, body: { url: 'https://next.example.com/hook' } });
      expect(response.status).toBe(200);
      expect(response.body.url).toBe('https://next.example.com/hook');
      expect(outboundDials(app)).toEqual([]);
      await app.request('PATCH', `/api/webhooks/${webhookId}`, { key, body: { url: original } });
    });
  });

  describe('at delivery time: a name that turns private after creation (DNS rebinding)', () => {
    const NAME = 'rebind.example.com';

    beforeEach(async () => {
      await app.reset();
      key = await unlimitedOrg(app);
      receiver.received.length = 0;
    });

    it.each([
      ['A 127.0.0.1', { A: ['127.0.0.1'] }, /127\.0\.0\.1, a loopback address/],
      ['A 10.0.0.1', { A: ['10.0.0.1'] }, /10\.0\.0\.1, a private network address/],
      ['A 169.254.169.254', { A: ['169.254.169.254'] }, /169\.254\.169\.254, a link-local address/],
      ['the public A plus 127.0.0.1', { A: [PUBLIC_V4, '127.0.0.1'] }, /127\.0\.0\.1, a loopback address/],
      ['AAAA ::1', { AAAA: ['::1'] }, /::1, a loopback address/],
      ['AAAA ::ffff:127.0.0.1', { AAAA: ['::ffff:127.0.0.1'] }, /IPv4-mapped form of 127\.0\.0\.1/],
    ] as const)('refuses every attempt before connecting once the name answers %s', async (_what, rebound, reason) => {
      // Public at creation: accepted, looked up, not dialled.
      answer(app.dns, NAME, { A: [PUBLIC_V4] });
      const url = `http://${NAME}:${receiver.port}/hook`;
      const created = await app.request('POST', '/api/webhooks', { key, body: { url, events: ['*'] } });
      expect(created.status).toBe(201);
      expect(created.body.url).toBe(url);
      expect(queriesAbout(app.dns, NAME).sort()).toEqual([`A ${NAME}`, `AAAA ${NAME}`]);
      expect(outboundDials(app)).toEqual([]);

      // The answer turns internal before anything is delivered.
      answer(app.dns, NAME, rebound);
      expect((await app.request('POST', '/api/domains', { key, body: { name: 'acme.example.com' } })).status).toBe(201);

      const delivery = async () => {
        const detail = await app.request('GET', `/api/webhooks/${created.body.id}`, { key });
        expect(detail.body.deliveries).toHaveLength(1);
        return detail.body.deliveries[0];
      };
      const refusal = new RegExp(`^refused before connecting: ${NAME.replace(/\./g, '\\.')} resolves to .*${reason.source}`);

      // Attempt 1: refused, and a retry is scheduled one base delay later.
      expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { pending: 1 } });
      expect(await delivery()).toMatchObject({
        eventType: 'domain.created',
        status: 'pending',
        attempts: 1,
        responseStatus: null,
        lastError: expect.stringMatching(refusal),
        nextAttemptAt: new Date(app.clock.now().getTime() + 1_000).toISOString(),
      });
      // Not due yet: nothing happens.
      expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 0, outcomes: {} });

      // Attempts 2 to 4, each when due (1 s, 10 s, 100 s after the one before): every one refused.
      for (const [waitMs, attempts, status] of [
        [1_000, 2, 'pending'],
        [10_000, 3, 'pending'],
        [100_000, 4, 'failed'],
      ] as const) {
        app.clock.advance(waitMs);
        expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { [status]: 1 } });
        expect(await delivery()).toMatchObject({ status, attempts, responseStatus: null, lastError: expect.stringMatching(refusal) });
      }
      expect((await delivery()).nextAttemptAt).toBeNull();

      const deliveryId = (await delivery()).id as string;
      const detail = await app.request('GET', `/api/webhooks/${created.body.id}/deliveries/${deliveryId}`, { key });
      expect(detail.body.attemptsMade).toHaveLength(4);
      for (const attempt of detail.body.attemptsMade) {
        expect(attempt).toMatchObject({ trigger: 'scheduled', succeeded: false, responseStatus: null, responseExcerpt: null });
        expect(attempt.error).toMatch(refusal);
      }

      // Each attempt resolved afresh (one A and one AAAA question each), and none ever dialled.
      expect(queriesAbout(app.dns, NAME).filter((q) => q.startsWith('A '))).toHaveLength(5);
      expect(queriesAbout(app.dns, NAME).filter((q) => q.startsWith('AAAA '))).toHaveLength(5);
      expect(outboundDials(app)).toEqual([]);
      expect(receiver.received).toEqual([]);
    });

    it('refuses the test ping and a replay the same way', async () => {
      answer(app.dns, NAME, { A: [PUBLIC_V4] });
      const created = await app.request('POST', '/api/webhooks', { key, body: { url: `http://${NAME}:${receiver.port}/hook`, events: ['*'] } });
      expect(created.status).toBe(201);
      answer(app.dns, NAME, { A: ['127.0.0.1'] });

      const ping = await app.request('POST', `/api/webhooks/${created.body.id}/test`, { key });
      expect(ping.status).toBe(200);
      expect(ping.body.attempt).toMatchObject({ succeeded: false, responseStatus: null, error: expect.stringMatching(/^refused before connecting: rebind\.example\.com resolves to 127\.0\.0\.1/) });

      // A replay of a delivery whose scheduled attempts all failed: checked afresh, refused too.
      await app.request('POST', '/api/domains', { key, body: { name: 'acme.example.com' } });
      for (const waitMs of [0, 1_000, 10_000, 100_000]) {
        app.clock.advance(waitMs);
        expect((await sweepWebhookDeliveries(app.runtime.deps)).handled).toBe(1);
      }
      const [delivery] = (await app.request('GET', `/api/webhooks/${created.body.id}/deliveries?status=failed`, { key })).body.data;
      const replay = await app.request('POST', `/api/webhooks/${created.body.id}/deliveries/${delivery.id}/replay`, { key });
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ status: 'failed', attempt: { trigger: 'replay', succeeded: false, error: expect.stringMatching(/^refused before connecting: rebind\.example\.com resolves to 127\.0\.0\.1/) } });

      expect(outboundDials(app)).toEqual([]);
      expect(receiver.received).toEqual([]);
    });
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_CIDRS=127.0.0.0/8', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '1000' } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });
  beforeEach(async () => {
    await app.reset();
    key = await unlimitedOrg(app);
    receiver.received.length = 0;
    receiver.answerWith(() => ({ status: 200 }));
  });

  const create = (url: string) => app.request('POST', '/api/webhooks', { key, body: { url, events: ['*'] } });
  const dialsToReceiver = () => guard.attempts.filter((a) => a.port === receiver.port);

  it('accepts a name resolving to 127.0.0.1 and delivers to it', async () => {
    app.dns.a('ok.example.com', '127.0.0.1');
    const created = await create(`http://ok.example.com:${receiver.port}/hook`);
    expect(created.status).toBe(201);
    await app.request('POST', '/api/domains', { key, body: { name: 'acme.example.com' } });
    expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { succeeded: 1 } });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`ok.example.com:${receiver.port}`);
    expect(receiver.verify(receiver.received[0]!, created.body.secret).type).toBe('domain.created');
    expect(dialsToReceiver()).toEqual([{ host: '127.0.0.1', port: receiver.port }]);
  });

  it('accepts loopback literals in the allowed range, however spelt', async () => {
    for (const [url, stored] of [
      [`http://127.0.0.1:${receiver.port}/hook`, `http://127.0.0.1:${receiver.port}/hook`],
      [`http://0x7f000001:${receiver.port}/hook`, `http://127.0.0.1:${receiver.port}/hook`],
      [`http://[::ffff:127.0.0.1]:${receiver.port}/hook`, `http://[::ffff:7f00:1]:${receiver.port}/hook`],
    ]) {
      const created = await create(url!);
      expect(created.status, url).toBe(201);
      expect(created.body.url).toBe(stored);
      await app.request('DELETE', `/api/webhooks/${created.body.id}`, { key });
    }
    expect(outboundDials(app)).toEqual([]);
  });

  it.each([
    ['10.0.0.1', 'http://10.0.0.1/', {}, /10\.0\.0\.1, a private network address/],
    ['[::1]', 'http://[::1]/', {}, /::1, a loopback address/],
    ['NAT64 loopback', 'http://[64:ff9b::7f00:1]/', {}, /NAT64 form of 127\.0\.0\.1/],
    ['6to4 loopback', 'http://[2002:7f00:1::]/', {}, /6to4 form of 127\.0\.0\.1/],
    ['metadata', 'http://169.254.169.254/latest/meta-data', {}, /link-local/],
    ['localhost', 'http://localhost/', {}, /not a public host name/],
    ['credentials', 'http://user:pass@127.0.0.1/', {}, /user name or password/],
    ['a name resolving to 10.0.0.1', 'http://internal.example.com/', { A: ['10.0.0.1'] }, /resolves to 10\.0\.0\.1/],
    ['a name resolving to AAAA ::1', 'http://internal.example.com/', { AAAA: ['::1'] }, /resolves to ::1, a loopback/],
    ['a name resolving to 127.0.0.1 and AAAA ::1', 'http://internal.example.com/', { A: ['127.0.0.1'], AAAA: ['::1'] }, /resolves to ::1, a loopback/],
  ] as const)('still refuses %s: only the allowed range opens', async (_what, url, answers, reason) => {
    answer(app.dns, 'internal.example.com', answers);
    const response = await create(url);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION_ERROR', error: expect.stringMatching(new RegExp(`^url: .*${reason.source}`)) });
    expect(outboundDials(app)).toEqual([]);
  });

  it('refuses before connecting once an allowed name turns to a range that is not allowed', async () => {
    app.dns.a('ok.example.com', '127.0.0.1');
    const created = await create(`http://ok.example.com:${receiver.port}/hook`);
    await app.request('POST', '/api/domains', { key, body: { name: 'one.example.com' } });
    expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { succeeded: 1 } });
    expect(receiver.received).toHaveLength(1);

    answer(app.dns, 'ok.example.com', { A: ['10.0.0.1'] });
    await app.request('POST', '/api/domains', { key, body: { name: 'two.example.com' } });
    expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { pending: 1 } });
    const pending = (await app.request('GET', `/api/webhooks/${created.body.id}/deliveries?status=pending`, { key })).body.data;
    expect(pending).toEqual([
      expect.objectContaining({ attempts: 1, lastError: expect.stringMatching(/^refused before connecting: ok\.example\.com resolves to 10\.0\.0\.1, a private network address/) }),
    ]);
    // The first delivery's single dial, to the checked address; the second never dialled.
    expect(receiver.received).toHaveLength(1);
    expect(outboundDials(app)).toEqual([{ host: '127.0.0.1', port: receiver.port }]);
  });

  it('pins the connection to the checked address: one lookup per attempt, and the socket gets the address, not the name', async () => {
    app.dns.a('pin.example.com', '127.0.0.1');
    const created = await create(`http://pin.example.com:${receiver.port}/hook`);
    expect(created.status).toBe(201);
    app.dns.queries.length = 0;

    await app.request('POST', '/api/domains', { key, body: { name: 'acme.example.com' } });
    expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { succeeded: 1 } });
    // Exactly one A and one AAAA question for the attempt: nothing (undici, net) looks the name up again.
    expect(queriesAbout(app.dns, 'pin.example.com').sort()).toEqual(['A pin.example.com', 'AAAA pin.example.com']);
    // The dial went to the IP literal that was checked, so no lookup could happen underneath it.
    expect(dialsToReceiver()).toEqual([{ host: '127.0.0.1', port: receiver.port }]);
    expect(receiver.received).toHaveLength(1);

    // The answer moves to another allowed address. The kept connection to 127.0.0.1 is not
    // reused for it: the next attempt dials the newly checked 127.0.0.2, where nothing listens.
    answer(app.dns, 'pin.example.com', { A: ['127.0.0.2'] });
    app.dns.queries.length = 0;
    await app.request('POST', '/api/domains', { key, body: { name: 'beta.example.com' } });
    expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { pending: 1 } });
    expect(queriesAbout(app.dns, 'pin.example.com').sort()).toEqual(['A pin.example.com', 'AAAA pin.example.com']);
    expect(dialsToReceiver()).toEqual([
      { host: '127.0.0.1', port: receiver.port },
      { host: '127.0.0.2', port: receiver.port },
    ]);
    expect(receiver.received).toHaveLength(1);
    const [failed] = (await app.request('GET', `/api/webhooks/${created.body.id}/deliveries?status=pending`, { key })).body.data;
    expect(failed.lastError).toBe(`pin.example.com (127.0.0.2 port ${receiver.port}) refused the connection`);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    app.dns.a('ok.example.com', '127.0.0.1');
    receiver.answerWith((hook) => (hook.path === '/hook' ? { status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/followed` } } : { status: 200 }));
    const created = await create(`http://ok.example.com:${receiver.port}/hook`);
    await app.request('POST', '/api/domains', { key, body: { name: 'acme.example.com' } });
    expect(await sweepWebhookDeliveries(app.runtime.deps)).toEqual({ handled: 1, outcomes: { pending: 1 } });
    expect(receiver.received.map((hook) => hook.path)).toEqual(['/hook']);
    const [delivery] = (await app.request('GET', `/api/webhooks/${created.body.id}/deliveries`, { key })).body.data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 302, lastError: expect.stringMatching(/^answered 302 \(a redirect to .*\/followed\); redirects are not followed/) });
    expect(dialsToReceiver()).toHaveLength(1);
  });
});
