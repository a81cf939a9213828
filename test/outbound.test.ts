import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  OutboundFailedError,
  OutboundRefusedError,
  classifyAddress,
  isPublicAddress,
  outboundRequest,
  parseCidr,
  validateOutboundUrl,
  type OutboundPolicy,
} from '@/server/net/outbound';
import { isLoopbackAddress } from '@/server/net/ip-policy';
import { guardConnections, type ConnectGuard } from './support/connect-guard';
import { startDnsServer, type DnsServer } from './support/dns';
import { selfSignedCertificate, startLoopbackServer, type Handler, type LoopbackServer } from './support/loopback-https';

// Public-looking addresses for the pure checks below; nothing ever connects to them.
const PUBLIC = ['93.184.215.14', '151.101.65.140', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '2a00:1450:4001:82a::200e', '2606:4700::6810:84e5', '64:ff9b::5db8:d70e'];

const NOT_PUBLIC: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['0.0.0.0', /this network/],
  ['255.255.255.255', /broadcast/],
  ['224.0.0.1', /multicast/],
  ['192.0.2.1', /documentation/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['fd00::1', /unique local/],
  ['fc00::1', /unique local/],
  ['fe80::1', /link-local/],
  ['ff02::1', /multicast/],
  ['::ffff:10.0.0.1', /IPv4-mapped form of 10\.0\.0\.1, a private/],
  ['::ffff:a9fe:a9fe', /IPv4-mapped form of 169\.254\.169\.254/],
  ['::ffff:127.0.0.1', /IPv4-mapped form of 127\.0\.0\.1, a loopback/],
  ['64:ff9b::a00:1', /NAT64 form of 10\.0\.0\.1/],
  ['2002:a00:1::1', /6to4 form of 10\.0\.0\.1/],
  ['::a00:1', /outside the global unicast range|reserved/],
  ['2001:db8::1', /documentation/],
  ['2001::1', /IETF protocol/],
  ['100::1', /discard/],
];

describe('isPublicAddress', () => {
  it.each(PUBLIC)('%s is public', (ip) => {
    expect(isPublicAddress(ip, [])).toBe(true);
    expect(classifyAddress(ip)).toBeNull();
  });

  it.each(NOT_PUBLIC)('%s is not public', (ip, label) => {
    expect(isPublicAddress(ip, [])).toBe(false);
    expect(classifyAddress(ip)).toMatch(label);
  });

  it('lets the operator allow-list open IPv4 and IPv6 ranges, and nothing else', () => {
    expect(isPublicAddress('127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(isPublicAddress('::ffff:127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(isPublicAddress('10.1.2.3', ['127.0.0.0/8'])).toBe(false);
    expect(isPublicAddress('::1', ['127.0.0.0/8'])).toBe(false);
    expect(isPublicAddress('::1', ['::1/128'])).toBe(true);
    expect(isPublicAddress('fd00::5', ['fd00::/8'])).toBe(true);
    expect(isPublicAddress('fe80::1', ['fd00::/8'])).toBe(false);
    expect(isPublicAddress('10.0.0.5', ['10.0.0.5'])).toBe(true);
    expect(isPublicAddress('10.0.0.6', ['10.0.0.5'])).toBe(false);
  });

  it('names a malformed allow-list entry', () => {
    for (const bad of ['10.0.0.0/33', 'nope', '10.0.0.0/8/1', 'fd00::/129', '10.0.0.0/x']) {
      expect(() => parseCidr(bad)).toThrow(`"${bad}" is not a CIDR range`);
    }
    expect(parseCidr('fd00::/8')).toEqual({ family: 'ipv6', network: 'fd00::', prefix: 8 });
  });
});

// Who counts as "this machine" for /metrics without a token (server/http/metrics-endpoint.ts).
describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '::FFFF:127.3.2.1'])('%s is this machine', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(true);
  });

  it.each([undefined, '', 'localhost', '10.0.0.1', '128.0.0.1', '::2', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', 'fe80::1'])('%s is not', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(false);
  });
});

describe('validateOutboundUrl', () => {
  const refusal = (url: string, allow: string[] = []) => {
    const check = validateOutboundUrl(url, allow);
    return check.ok ? null : check.reason;
  };

  it('accepts http and https URLs with a fully qualified host name', () => {
    expect(validateOutboundUrl('https://hooks.example.com/in?x=1')).toMatchObject({ ok: true, host: 'hooks.example.com', isIpLiteral: false });
    expect(validateOutboundUrl('http://hooks.example.com.:8080/')).toMatchObject({ ok: true, host: 'hooks.example.com' });
    expect(validateOutboundUrl('https://93.184.215.14/')).toMatchObject({ ok: true, isIpLiteral: true });
  });

  it('refuses other schemes, credentials and malformed URLs', () => {
    expect(refusal('ftp://hooks.example.com/')).toMatch(/http:\/\/ or https:\/\/ \(got ftp:\)/);
    expect(refusal('file:///etc/passwd')).toMatch(/http:\/\/ or https:\/\//);
    expect(refusal('javascript:alert(1)')).toMatch(/http:\/\/ or https:\/\//);
    expect(refusal('https://user:secret@hooks.example.com/')).toMatch(/user name or password/);
    expect(refusal('https://user@hooks.example.com/')).toMatch(/user name or password/);
    expect(refusal('not a url')).toMatch(/not a valid URL/);
  });

  it('refuses private IP literals in every spelling, unless allow-listed', () => {
    expect(refusal('http://10.0.0.1/')).toMatch(/10\.0\.0\.1, a private network address/);
    expect(refusal('http://0x7f.1/')).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(refusal('http://2130706433/')).toMatch(/loopback/);
    expect(refusal('http://[::ffff:10.0.0.1]/')).toMatch(/IPv4-mapped form of 10\.0\.0\.1/);
    expect(refusal('http://[fd00::1]/')).toMatch(/unique local/);
    expect(refusal('http://127.0.0.1:3000/', ['127.0.0.0/8'])).toBeNull();
  });

  it('refuses names that cannot be public', () => {
    expect(refusal('http://localhost:3000/')).toMatch(/not a public host name/);
    expect(refusal('http://app.localhost/')).toMatch(/not a public host name/);
    expect(refusal('http://intranet/')).toMatch(/not a public host name/);
  });
});

describe('outboundRequest', () => {
  let dns: DnsServer;
  let plain: LoopbackServer;
  let secure: LoopbackServer;
  let ca: string;
  let guard: ConnectGuard;
  let policy: OutboundPolicy;

  const handler: Handler = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/echo') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, host: req.headers.host, body: Buffer.concat(chunks).toString() }));
      } else if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://hooks.example.com:${plain.port}/target` }).end();
      } else if (req.url === '/big') {
        res.end(Buffer.alloc(100 * 1024, 'x'));
      } else if (req.url === '/big-chunked') {
        // No content-length: the cap must hold while streaming.
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(10 * 1024, 'x'));
        res.end();
      } else if (req.url === '/slow') {
        // Never answers; the client's deadline must end it.
      } else {
        res.end('hello');
      }
    });
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    const certificate = await selfSignedCertificate(['hooks.example.com', 'api.example.com']);
    ca = certificate.cert;
    plain = await startLoopbackServer(handler);
    secure = await startLoopbackServer(handler, certificate);
    policy = { dnsServers: [dns.address], allowPrivateCidrs: ['127.0.0.0/8'], ca };
  });

  afterAll(async () => {
    await Promise.all([dns?.close(), plain?.close(), secure?.close()]);
  });

  beforeEach(() => {
    dns.clear();
    guard = guardConnections();
  });

  afterEach(() => guard.restore());

  const refusedWithoutConnecting = async (url: string, requestPolicy: OutboundPolicy, message: RegExp) => {
    const before = plain.connections() + secure.connections();
    const error = await outboundRequest(url, { timeoutMs: 2_000 }, requestPolicy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toMatch(message);
    expect(guard.attempts).toEqual([]);
    expect(plain.connections() + secure.connections()).toBe(before);
  };

  it('sends over HTTP to the address the test DNS gives, with the original Host header', async () => {
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    const response = await outboundRequest(
      `http://hooks.example.com:${plain.port}/echo`,
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ping', timeoutMs: 2_000, maxBytes: 1024 },
      policy,
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body.toString())).toEqual({ method: 'POST', host: `hooks.example.com:${plain.port}`, body: 'ping' });
    expect(guard.attempts).toEqual([{ host: '127.0.0.1', port: plain.port }]);
  });

  it('sends over HTTPS, checking the certificate against the host name', async () => {
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    const response = await outboundRequest(`https://hooks.example.com:${secure.port}/echo`, { timeoutMs: 2_000 }, policy);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: 'GET', host: `hooks.example.com:${secure.port}` });
    expect(guard.attempts).toEqual([{ host: '127.0.0.1', port: secure.port }]);

    // Same address, a name the certificate does not cover: refused by TLS.
    dns.set('other.example.net', 'A', ['127.0.0.1']);
    const mismatch = await outboundRequest(`https://other.example.net:${secure.port}/echo`, { timeoutMs: 2_000 }, policy).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(OutboundFailedError);
    expect((mismatch as Error).message).toMatch(/TLS certificate of other\.example\.net is not valid/);

    // Without the test CA the self-signed certificate is not trusted.
    const untrusted = await outboundRequest(`https://hooks.example.com:${secure.port}/echo`, { timeoutMs: 2_000 }, { ...policy, ca: undefined }).catch((e: unknown) => e);
    expect(untrusted).toBeInstanceOf(OutboundFailedError);
    expect((untrusted as Error).message).toMatch(/TLS certificate of hooks\.example\.com is not valid/);
  });

  it.each([
    ['A', '10.1.2.3', /10\.1\.2\.3, a private network address/],
    ['A', '172.16.9.9', /private network/],
    ['A', '192.168.1.1', /private network/],
    ['A', '169.254.169.254', /link-local/],
    ['A', '100.64.0.1', /carrier-grade NAT/],
    ['A', '0.0.0.0', /this network/],
    ['A', '224.0.0.1', /multicast/],
    ['AAAA', '::1', /loopback/],
    ['AAAA', 'fd00::1', /unique local/],
    ['AAAA', 'fe80::1', /link-local/],
    ['AAAA', '::ffff:10.0.0.1', /IPv4-mapped form of 10\.0\.0\.1/],
    ['AAAA', '64:ff9b::a9fe:a9fe', /NAT64 form of 169\.254\.169\.254/],
  ] as const)('refuses a name resolving to %s %s before any connection', async (type, ip, message) => {
    dns.set('hooks.example.com', type, [ip]);
    await refusedWithoutConnecting(`http://hooks.example.com:${plain.port}/echo`, policy, message);
    await refusedWithoutConnecting(`https://hooks.example.com:${secure.port}/echo`, policy, message);
  });

  it('refuses loopback when the allow-list is empty, without connecting', async () => {
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    await refusedWithoutConnecting(`http://hooks.example.com:${plain.port}/echo`, { ...policy, allowPrivateCidrs: [] }, /127\.0\.0\.1, a loopback address/);
    await refusedWithoutConnecting(`http://127.0.0.1:${plain.port}/echo`, { ...policy, allowPrivateCidrs: [] }, /loopback/);
  });

  it('refuses a name with one public and one private address', async () => {
    dns.set('hooks.example.com', 'A', ['93.184.215.14', '10.1.2.3']);
    await refusedWithoutConnecting(`http://hooks.example.com:${plain.port}/echo`, policy, /10\.1\.2\.3/);
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    dns.set('hooks.example.com', 'AAAA', ['fd00::1']);
    await refusedWithoutConnecting(`http://hooks.example.com:${plain.port}/echo`, policy, /fd00::1/);
  });

  it('does not follow redirects: a 302 comes back as is', async () => {
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    const before = plain.requests.length;
    const response = await outboundRequest(`http://hooks.example.com:${plain.port}/redirect`, { timeoutMs: 2_000 }, policy);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`http://hooks.example.com:${plain.port}/target`);
    expect(plain.requests.slice(before)).toEqual(['GET /redirect']);
    expect(guard.attempts).toHaveLength(1);
  });

  it('gives up after the total timeout', async () => {
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    const error = await outboundRequest(`http://hooks.example.com:${plain.port}/slow`, { timeoutMs: 300 }, policy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundFailedError);
    expect((error as Error).message).toBe('hooks.example.com did not answer completely within 300 ms');
  });

  it('counts the DNS lookup in the total timeout', async () => {
    dns.mute('silent.example.com');
    const started = Date.now();
    const error = await outboundRequest(`http://silent.example.com:${plain.port}/echo`, { timeoutMs: 300 }, policy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundFailedError);
    expect((error as Error).message).toBe('the DNS lookup of silent.example.com did not finish within 300 ms');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(guard.attempts).toEqual([]);
  });

  it('says plainly when the allow-list is malformed', async () => {
    await expect(outboundRequest('https://hooks.example.com/', {}, { ...policy, allowPrivateCidrs: ['10.0.0.0/99'] })).rejects.toThrow(
      '"10.0.0.0/99" is not a CIDR range',
    );
    expect(dns.queries).toEqual([]);
  });

  it('caps the size of the answer, declared or streamed', async () => {
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    for (const path of ['/big', '/big-chunked']) {
      const error = await outboundRequest(`http://hooks.example.com:${plain.port}${path}`, { timeoutMs: 2_000, maxBytes: 64 * 1024 }, policy).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundFailedError);
      expect((error as Error).message).toBe('the answer of hooks.example.com is larger than 65536 bytes');
    }
    const exact = await outboundRequest(`http://hooks.example.com:${plain.port}/big`, { timeoutMs: 2_000, maxBytes: 100 * 1024 }, policy);
    expect(exact.body.length).toBe(100 * 1024);
  });

  it('refuses other schemes and credentials before any lookup or connection', async () => {
    await refusedWithoutConnecting('ftp://hooks.example.com/file', policy, /http:\/\/ or https:\/\//);
    await refusedWithoutConnecting(`http://user:pw@hooks.example.com:${plain.port}/echo`, policy, /user name or password/);
    expect(dns.queries).toEqual([]);
  });

  it('fails clearly when the name does not resolve', async () => {
    const error = await outboundRequest(`http://nowhere.example.com:${plain.port}/`, { timeoutMs: 2_000 }, policy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundFailedError);
    expect((error as Error).message).toBe('nowhere.example.com does not resolve to any address (no A or AAAA record)');
    expect(guard.attempts).toEqual([]);
  });

  it('re-resolves and re-checks on every request, and dials the address it checked (DNS rebinding)', async () => {
    const url = `http://hooks.example.com:${plain.port}/echo`;
    dns.set('hooks.example.com', 'A', ['127.0.0.1']);
    expect((await outboundRequest(url, { timeoutMs: 2_000 }, policy)).status).toBe(200);

    // The answer turns private: the next request is refused before connecting.
    dns.set('hooks.example.com', 'A', ['10.1.2.3']);
    const refused = await outboundRequest(url, { timeoutMs: 2_000 }, policy).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutboundRefusedError);
    expect(guard.attempts).toEqual([{ host: '127.0.0.1', port: plain.port }]);

    // The answer moves to another (allowed) address: that very address is dialed. Nothing
    // listens on 127.0.0.2, so the connection is refused rather than reaching the server.
    dns.set('hooks.example.com', 'A', ['127.0.0.2']);
    const moved = await outboundRequest(url, { timeoutMs: 2_000 }, policy).catch((e: unknown) => e);
    expect(moved).toBeInstanceOf(OutboundFailedError);
    expect((moved as Error).message).toBe(`hooks.example.com (127.0.0.2 port ${plain.port}) refused the connection`);
    expect(guard.attempts.at(-1)).toEqual({ host: '127.0.0.2', port: plain.port });
    expect(dns.queries.filter((q) => q === 'A hooks.example.com')).toHaveLength(3);
  });
});
